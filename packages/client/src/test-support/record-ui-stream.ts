/**
 * Test support (not exported): produces a UI message stream with the REAL `ai` pipeline
 * (`streamText` + `MockLanguageModelV2` + `toUIMessageStreamResponse`) and returns the Response.
 *
 * The scripted turn has three model steps:
 *  1. text (with multi-byte characters) + a streamed `weather` tool call that succeeds;
 *  2. a `weather` call whose input fails the zod schema (tool-input-error + tool-output-error)
 *     and a `explode` call whose execute throws (tool-input-available + tool-output-error);
 *  3. closing text.
 */
import { stepCountIs, streamText, tool } from 'ai';
import { MockLanguageModelV2, convertArrayToReadableStream } from 'ai/test';
import { z } from 'zod';

type DoStreamResult = Awaited<ReturnType<MockLanguageModelV2['doStream']>>;
type StreamPart = DoStreamResult['stream'] extends ReadableStream<infer P> ? P : never;

export const RECORDED_ASSISTANT_ID = 'asst-rec-1';

const usage = { inputTokens: 10, outputTokens: 5, totalTokens: 15 };

const steps: StreamPart[][] = [
  [
    { type: 'stream-start', warnings: [] },
    { type: 'text-start', id: 't1' },
    { type: 'text-delta', id: 't1', delta: 'Grüße aus Zürich 👋 ' },
    { type: 'text-delta', id: 't1', delta: 'let me check — 東京?' },
    { type: 'text-end', id: 't1' },
    { type: 'tool-input-start', id: 'call-1', toolName: 'weather' },
    { type: 'tool-input-delta', id: 'call-1', delta: '{"city":' },
    { type: 'tool-input-delta', id: 'call-1', delta: '"Paris"}' },
    { type: 'tool-input-end', id: 'call-1' },
    { type: 'tool-call', toolCallId: 'call-1', toolName: 'weather', input: '{"city":"Paris"}' },
    { type: 'finish', finishReason: 'tool-calls', usage },
  ],
  [
    { type: 'tool-call', toolCallId: 'call-2', toolName: 'weather', input: '{"city":42}' },
    { type: 'tool-call', toolCallId: 'call-3', toolName: 'explode', input: '{}' },
    { type: 'finish', finishReason: 'tool-calls', usage },
  ],
  [
    { type: 'text-start', id: 't2' },
    { type: 'text-delta', id: 't2', delta: 'It is sunny, 21 °C.' },
    { type: 'text-end', id: 't2' },
    { type: 'finish', finishReason: 'stop', usage },
  ],
];

export const recordedTools = {
  weather: tool({
    description: 'Weather for a city',
    inputSchema: z.object({ city: z.string() }),
    execute: async ({ city }) => ({ city, temp: 21 }),
  }),
  explode: tool({
    description: 'Always throws',
    inputSchema: z.object({}),
    execute: async (): Promise<string> => {
      throw new Error('boom in tool');
    },
  }),
};

/** Runs the scripted turn through the real pipeline; the Response carries `X-Asst-Id`. */
export function recordUiStreamResponse(assistantId = RECORDED_ASSISTANT_ID): Response {
  let call = 0;
  const model = new MockLanguageModelV2({
    doStream: async () => ({ stream: convertArrayToReadableStream(steps[Math.min(call++, steps.length - 1)]!) }),
  });
  const result = streamText({
    model,
    prompt: 'weather in Paris?',
    tools: recordedTools,
    stopWhen: stepCountIs(5),
  });
  return result.toUIMessageStreamResponse({
    generateMessageId: () => assistantId,
    headers: { 'X-Asst-Id': assistantId },
    // chatwire sends real tool error messages (the SDK masks them by default).
    onError: (error) => (error instanceof Error ? error.message : String(error)),
  });
}

/** The recorded body as bytes. */
export async function recordUiStreamBytes(assistantId = RECORDED_ASSISTANT_ID): Promise<Uint8Array> {
  return new Uint8Array(await recordUiStreamResponse(assistantId).arrayBuffer());
}
