import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewerMajor } from './cross-major-models.js';
import { anthropicFixtures, anthropicFollowUp } from './fixtures/anthropic-messages.js';
import { compatibleFollowUp, openaiCompatibleFixtures } from './fixtures/openai-compatible.js';
import { openaiResponsesFixtures, responsesFollowUp } from './fixtures/openai-responses.js';
import type { RecordedResponse, ReplayFixture } from './replay-fixture.js';
import { replayProvider } from './replay-provider.js';
import { sendTurn } from './run-chatwire.js';
import { runMajor } from './run-major.js';

const provider = replayProvider();
const server = setupServer(...provider.handlers);
beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
  // The provider packages warn about the test model ids, which they do not know.
  (globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;
});
afterAll(() => server.close());

const FOLLOW_UP: Record<string, RecordedResponse> = { alpha: anthropicFollowUp, beta: responsesFollowUp, gamma: compatibleFollowUp };
const FIXTURES: ReplayFixture[] = [...anthropicFixtures, ...openaiResponsesFixtures, ...openaiCompatibleFixtures].filter((f) => f.ends === 'finish');
const MAJORS: readonly NewerMajor[] = ['v6', 'v7'];

describe('an app model of AI SDK 6 or 7 takes the stored history back (the v2 prompt converted to its spec)', () => {
  it.each(MAJORS.flatMap((major) => FIXTURES.map((f) => [major, f.name, f] as const)))('%s: a follow-up turn after "%s" is answered', async (major, _name, fixture) => {
    const first = await runMajor(major, fixture, provider);
    expect(first.storedParts).not.toBeNull();
    const reply = FOLLOW_UP[fixture.modelId.split('-')[0]!]!;
    const second = await sendTurn(first, provider, { modelId: fixture.modelId, content: 'And then?', responses: [reply] }, 'u-2');
    expect(second.chunks.at(-1)).toEqual({ type: 'finish', finishReason: 'stop' });
    expect(second.requests).toHaveLength(1);
    // The history went out: the first turn's user message and answer are in the request.
    const sent = JSON.stringify(second.requests[0]!.body);
    expect(sent).toContain(JSON.stringify(fixture.content).slice(1, -1));
    const answer = (first.storedParts as Array<{ type: string; text?: string }>).filter((p) => p.type === 'text').at(-1)?.text;
    if (answer) expect(sent).toContain(JSON.stringify(answer).slice(1, -1));
  });
});
