import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatwireChunksCompared, sdkChunksAsChatwireSends, sdkMessageParts } from './accepted-differences.js';
import { anthropicFixtures } from './fixtures/anthropic-messages.js';
import { openaiCompatibleFixtures } from './fixtures/openai-compatible.js';
import { openaiResponsesFixtures } from './fixtures/openai-responses.js';
import type { ReplayFixture } from './replay-fixture.js';
import { replayProvider } from './replay-provider.js';
import { runChatwire } from './run-chatwire.js';
import { runSdk } from './run-sdk.js';

const provider = replayProvider();
const server = setupServer(...provider.handlers);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

const FIXTURES: ReplayFixture[] = [...anthropicFixtures, ...openaiResponsesFixtures, ...openaiCompatibleFixtures];

type Chunk = Record<string, unknown>;

/** A difference chatwire still has for one fixture: how to set it aside, and the fix that removes it. */
interface KnownDifference {
  fix: string;
  /** Applied to the expected (SDK) chunks and stored parts so everything else is still compared exactly. */
  chunk?: (chunk: Chunk) => Chunk;
  part?: (part: Chunk) => Chunk;
}

const without = (key: string) => (value: Chunk): Chunk => {
  const { [key]: _dropped, ...rest } = value;
  return rest;
};

/**
 * Fixtures where chatwire still differs from the SDK. Each is compared with its difference set aside, and once
 * exactly under `it.fails`, which turns red when the fix lands: then delete the entry.
 */
const KNOWN_DIFFERENCES = new Map<string, KnownDifference>([]);

describe('record and replay: chatwire streams and stores what the AI SDK does on the same provider bytes', () => {
  it.each(FIXTURES.map((f) => [f.name, f] as const))('%s', (_name, fixture) => replayAndCompare(fixture, KNOWN_DIFFERENCES.get(fixture.name)));
  it.fails.each(FIXTURES.filter((f) => KNOWN_DIFFERENCES.has(f.name)).map((f) => [f.name, KNOWN_DIFFERENCES.get(f.name)!.fix, f] as const))(
    '%s, exactly (known difference; fix: %s)',
    (_name, _fix, fixture) => replayAndCompare(fixture),
  );
});

/** Replays one fixture through chatwire and through the SDK, and compares stream and stored answer. */
async function replayAndCompare(fixture: ReplayFixture, known?: KnownDifference): Promise<void> {
  const ours = await runChatwire(fixture, provider);
  const sdk = await runSdk(fixture, provider, ours.assistantMessageId);

  // Both made one model call per recorded response.
  expect(ours.requests).toHaveLength(sdk.requests.length);
  expect(provider.remaining()).toBe(0);

  const expected = sdkChunksAsChatwireSends(sdk.chunks);
  expect(chatwireChunksCompared(ours.chunks)).toEqual(known?.chunk ? expected.map(known.chunk) : expected);
  expect(ours.done).toBe(true);
  expect(ours.chunks.at(-1)!.type).toBe(fixture.ends);

  if (fixture.ends === 'error') {
    // What the user saw ended in an error: nothing is stored, not even the user's message.
    expect(ours.storedMessages).toBe(0);
  } else {
    expect(ours.storedMessages).toBe(2);
    const parts = (await sdkMessageParts(expected)) as Chunk[];
    expect(ours.storedParts).toEqual(known?.part ? parts.map(known.part) : parts);
  }
}
