import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anthropicFixtures, anthropicFollowUp } from './fixtures/anthropic-messages.js';
import { compatibleFollowUp, openaiCompatibleFixtures } from './fixtures/openai-compatible.js';
import { openaiResponsesFixtures, responsesFollowUp } from './fixtures/openai-responses.js';
import type { RecordedResponse, ReplayFixture } from './replay-fixture.js';
import { replayProvider, type ReplayedRequest } from './replay-provider.js';
import { runChatwire, sendTurn, type ChatwireRun } from './run-chatwire.js';
import { runSdk } from './run-sdk.js';

const provider = replayProvider();
const server = setupServer(...provider.handlers);
beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
  // The chat's tool catalog also offers the first turn's provider tools to the other providers' models,
  // which the SDK warns about on the console.
  (globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;
});
afterAll(() => server.close());

const FOLLOW_UP: Record<string, RecordedResponse> = { alpha: anthropicFollowUp, beta: responsesFollowUp, gamma: compatibleFollowUp };

function fixture(name: string): ReplayFixture {
  const found = [...anthropicFixtures, ...openaiResponsesFixtures, ...openaiCompatibleFixtures].find((f) => f.name.startsWith(name));
  if (!found) throw new Error(`no fixture ${name}`);
  return found;
}

async function followUp(first: ChatwireRun, modelId: ReplayFixture['modelId']): Promise<ChatwireRun> {
  const reply = FOLLOW_UP[modelId.split('-')[0]!]!;
  return sendTurn(first, provider, { modelId, content: 'And then?', responses: [reply] }, 'u-2');
}

/** Anthropic Messages request: the content blocks of every assistant message. */
function assistantBlocks(request: ReplayedRequest): Array<Record<string, unknown>> {
  const messages = request.body.messages as Array<{ role: string; content: Array<Record<string, unknown>> }>;
  return messages.filter((m) => m.role === 'assistant').flatMap((m) => m.content);
}

const toolUseInputs = (request: ReplayedRequest) =>
  assistantBlocks(request)
    .filter((b) => b.type === 'tool_use')
    .map((b) => [b.id, b.input]);

/**
 * The Messages API rejects a history where a tool call lacks its result: every `tool_use` needs a
 * `tool_result` in the next user message, every `server_tool_use` a result block in the same message.
 */
function expectPairedToolBlocks(request: ReplayedRequest): void {
  const messages = request.body.messages as Array<{ role: string; content: Array<Record<string, unknown>> }>;
  const blocks = messages.flatMap((m) => m.content);
  const resultIds = new Set(blocks.filter((b) => typeof b.type === 'string' && b.type.endsWith('tool_result')).map((b) => b.tool_use_id));
  const callIds = blocks.filter((b) => b.type === 'tool_use' || b.type === 'server_tool_use').map((b) => b.id);
  expect(callIds.filter((id) => !resultIds.has(id))).toEqual([]);
}

describe('the next model call carries the stored answer back to the provider', () => {
  it.each(
    [...anthropicFixtures, ...openaiResponsesFixtures, ...openaiCompatibleFixtures]
      .filter((f) => f.ends === 'finish')
      .map((f) => [f.name, f] as const),
  )('a follow-up turn after "%s" is answered', async (_name, f) => {
    const first = await runChatwire(f, provider);
    expect(first.storedParts).not.toBeNull();
    const second = await followUp(first, f.modelId);
    expect(second.chunks.at(-1)).toEqual({ type: 'finish', finishReason: 'stop' });
    expect(second.requests).toHaveLength(1);
    expect(second.storedParts).not.toBeNull();
    if (f.modelId.startsWith('alpha')) expectPairedToolBlocks(second.requests[0]!);
  });

  it('a failed tool call is replayed with the input the model sent: an object as is, a non-object as {}', async () => {
    const f = fixture('anthropic: failed tool calls');
    const first = await runChatwire(f, provider);
    const sdk = await runSdk(f, provider, first.assistantMessageId);

    const schemaFailure = ['toolu_01Sch3maF4il0000000000aa', { city: 42 }];
    const unknownTool = ['toolu_01Unkn0wnT00l000000000bb', { city: 'Oslo', days: 3 }];
    const throwing = ['toolu_01Thr0wingT00l00000000dd', {}];
    // The SDK's own next step resends the malformed JSON as a raw string (the Messages API answers 400
    // "Input should be a valid dictionary"); chatwire sends {} instead. Every other input is the same.
    expect(toolUseInputs(sdk.requests[1]!)).toEqual([schemaFailure, unknownTool, ['toolu_01Malf0rmedJs0n0000000cc', '{"city": "Os'], throwing]);
    const ours = [schemaFailure, unknownTool, ['toolu_01Malf0rmedJs0n0000000cc', {}], throwing];
    expect(toolUseInputs(first.requests[1]!)).toEqual(ours);

    // The next turn replays the stored answer with the same inputs, each call with its error result.
    const second = await followUp(first, f.modelId);
    expect(toolUseInputs(second.requests[0]!)).toEqual(ours);
    const results = (second.requests[0]!.body.messages as Array<{ role: string; content: Array<Record<string, unknown>> }>)
      .flatMap((m) => m.content)
      .filter((b) => b.type === 'tool_result');
    expect(results.map((r) => [r.tool_use_id, r.is_error])).toEqual(ours.map(([id]) => [id, true]));
  });

  it.each(
    [...anthropicFixtures, ...openaiResponsesFixtures]
      .filter((f) => f.providerTools.length > 0)
      .flatMap((f) => (['alpha-sonnet-4-6', 'beta-5.4', 'gamma-oss-120b'] as const).map((next) => [f.name, next, f] as const)),
  )('provider tools of "%s" are left out of the history when the chat goes on with %s', async (_name, next, f) => {
    const first = await runChatwire(f, provider);
    // The stored answer keeps the provider's calls and results (what the user saw).
    expect(first.storedParts!.some((p) => (p as { providerExecuted?: boolean }).providerExecuted === true)).toBe(true);
    const second = await followUp(first, next);
    expect(second.chunks.at(-1)).toEqual({ type: 'finish', finishReason: 'stop' });
    const sent = JSON.stringify(second.requests[0]!.body);
    for (const part of first.storedParts as Array<{ toolCallId?: string; providerExecuted?: boolean }>) {
      if (part.providerExecuted) expect(sent).not.toContain(part.toolCallId);
    }
    // The text of the answer still goes back.
    const text = (first.storedParts as Array<{ type: string; text?: string }>).filter((p) => p.type === 'text').at(-1)!.text!;
    expect(sent).toContain(text);
  });

  it('within the tool loop, a provider tool call that failed at the provider is not sent alone', async () => {
    const f = fixture('anthropic: a provider-side web search error and an app tool call');
    const first = await runChatwire(f, provider);
    const sdk = await runSdk(f, provider, first.assistantMessageId);
    // The SDK's own next step sends the server_tool_use without its result (the provider package drops an
    // error result); chatwire leaves the failed call out.
    expect(() => expectPairedToolBlocks(sdk.requests[1]!)).toThrow();
    expectPairedToolBlocks(first.requests[1]!);
    expect(toolUseInputs(first.requests[1]!)).toEqual([['toolu_01Mix3dWeather00000000hh', { city: 'Oslo' }]]);
  });
});
