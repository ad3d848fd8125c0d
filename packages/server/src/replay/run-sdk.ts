import { stepCountIs, streamText, type UIMessageChunk } from 'ai';
import { signToken } from '../test-support/chat-fixture.js';
import type { ReplayFixture } from './replay-fixture.js';
import type { ReplayedRequest, ReplayProvider } from './replay-provider.js';
import { REPLAY_MAX_RETRIES, replayModel } from './replay-handler.js';
import { replayToolSet } from './replay-tools.js';

/** chatwire's step cap (`MAX_TOOL_STEPS`); no fixture comes near it. */
const STEP_CAP = 5;

/**
 * chatwire's rule for tool error texts: the real message (a string as is, an Error's message, otherwise a
 * fixed text). Given to the SDK as `onError` so tool error texts can be compared exactly; it also sets the
 * text of `error` chunks, which the comparison ignores.
 */
export function toolErrorText(error: unknown): string {
  if (typeof error === 'string') return error;
  if (error instanceof Error) return error.message;
  return 'The tool failed.';
}

export interface SdkRun {
  chunks: UIMessageChunk[];
  requests: ReplayedRequest[];
}

/**
 * The AI SDK on the same recorded bytes: `streamText` with the same model, prompt and tools, then
 * `toUIMessageStream({ sendReasoning: false })`, with chatwire's assistant message id as `start.messageId`.
 */
export async function runSdk(fixture: ReplayFixture, provider: ReplayProvider, assistantMessageId: string): Promise<SdkRun> {
  provider.load(fixture.responses);
  const result = streamText({
    model: replayModel(fixture.modelId, await signToken('alice')),
    messages: [{ role: 'user', content: fixture.content }],
    tools: replayToolSet(fixture.providerTools),
    stopWhen: stepCountIs(STEP_CAP),
    maxRetries: REPLAY_MAX_RETRIES,
    onError: () => undefined,
  });
  const stream = result.toUIMessageStream({ sendReasoning: false, generateMessageId: () => assistantMessageId, onError: toolErrorText });
  const chunks: UIMessageChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return { chunks, requests: [...provider.requests] };
}
