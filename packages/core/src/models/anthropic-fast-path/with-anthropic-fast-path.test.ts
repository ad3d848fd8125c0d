import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { anthropicFixtures, anthropicFollowUp } from '../../../../server/src/replay/fixtures/anthropic-messages.js';
import { framing, mutatedEvents, sseBytes, validEvents } from './test-support/anthropic-stream-arbitrary.js';
import { comparable, eligibleCall, errorShape, fastModel, outcome, packageModel, recordedFetch, type Outcome, type Recorded } from './test-support/differential.js';

const UNHANDLED = /does not read/;

/** Both outcomes, for the same answer cut at the same sizes. */
async function both(recorded: Recorded, sizes: readonly number[], options = eligibleCall(), cut?: Error): Promise<[Outcome, Outcome]> {
  return Promise.all([outcome(packageModel(recordedFetch(recorded, sizes, cut)), options), outcome(fastModel(recordedFetch(recorded, sizes, cut)), options)]);
}

/**
 * The fast path's outcome is the package's (parts deep-equal, error parts by position, the same thrown or
 * stream error), or, where the fast path met a valid event it does not read, the same parts up to its error part.
 */
function expectSame([pkg, fast]: [Outcome, Outcome]): 'same' | 'unhandled' {
  const at = fast.parts.findIndex((p) => p.type === 'error' && UNHANDLED.test(String((p.error as Error).message)));
  const thrownUnhandled = fast.thrown !== undefined && UNHANDLED.test(String((fast.thrown as Error).message));
  if (at !== -1 || thrownUnhandled) {
    if (thrownUnhandled) return 'unhandled';
    // The package's finish part holds its usage object, which a later message_delta (here, the one not
    // read) still changes: before that event, a finish part is compared by its finish reason.
    const before = (parts: Outcome['parts']) => parts.slice(0, at).map((p) => (p.type === 'finish' ? { type: p.type, finishReason: p.finishReason } : comparable(p)));
    expect(before(fast.parts)).toStrictEqual(before(pkg.parts));
    return 'unhandled';
  }
  expect(fast.parts.map(comparable)).toStrictEqual(pkg.parts.map(comparable));
  expect(errorShape(fast.thrown)).toStrictEqual(errorShape(pkg.thrown));
  expect(errorShape(fast.streamError)).toStrictEqual(errorShape(pkg.streamError));
  return 'same';
}

const responses: Array<{ name: string; recorded: Recorded }> = [
  ...anthropicFixtures.flatMap((f) => f.responses.map((recorded, i) => ({ name: `${f.name} #${i}`, recorded }))),
  { name: 'follow-up', recorded: anthropicFollowUp },
];

describe('withAnthropicFastPath: the recorded Anthropic answers', () => {
  it.each(responses)('$name: the same parts as @ai-sdk/anthropic at any chunk size', async ({ recorded }) => {
    const kinds = new Set<string>();
    for (const sizes of [[1], [2], [3], [7], [64], [100_000], [1, 5, 2, 13, 1, 300]]) kinds.add(expectSame(await both(recorded, sizes)));
    // Answers with server tools hold blocks the fast path does not read (a request that asks for them is the
    // package's): fed to the fast path anyway, they end in its error part.
    const serverBlocks = /"type":"(server_tool_use|\w+_tool_result)"/.test(String(recorded.body));
    expect([...kinds]).toStrictEqual([serverBlocks ? 'unhandled' : 'same']);
  });

  it('a request the fast path does not take gets exactly the package stream', async () => {
    for (const { recorded } of responses) {
      const options = { ...eligibleCall(), tools: [{ type: 'provider-defined' as const, id: 'anthropic.web_search_20250305' as const, name: 'web_search', args: {} }] };
      const [pkg, fast] = await both(recorded, [5], options);
      expect(fast.parts.map(comparable)).toStrictEqual(pkg.parts.map(comparable));
      expect(errorShape(fast.thrown)).toStrictEqual(errorShape(pkg.thrown));
    }
  });
});

describe('withAnthropicFastPath: generated and mutated answers (fast-check)', () => {
  const sizes = fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 6 });

  it('gives the parts @ai-sdk/anthropic gives, or its error part where it met an event it does not read', async () => {
    await fc.assert(
      fc.asyncProperty(mutatedEvents, framing, sizes, async (events, f, chunking) => {
        expectSame(await both({ status: 200, contentType: 'text/event-stream; charset=utf-8', body: sseBytes(events, f) }, chunking));
      }),
      { numRuns: 400 },
    );
  });

  it('valid answers give exactly the same parts', async () => {
    await fc.assert(
      fc.asyncProperty(validEvents, framing, sizes, async (events, f, chunking) => {
        expect(expectSame(await both({ status: 200, contentType: 'text/event-stream', body: sseBytes(events, f) }, chunking))).toBe('same');
      }),
      { numRuns: 200 },
    );
  });

  it('a connection lost mid-stream errors the stream as the package does (a retryable APICallError)', async () => {
    await fc.assert(
      fc.asyncProperty(validEvents, framing, sizes, async (events, f, chunking) => {
        const cut = new TypeError('terminated', { cause: Object.assign(new Error('other side closed'), { code: 'ECONNRESET' }) });
        const recorded: Recorded = { status: 200, contentType: 'text/event-stream', body: sseBytes(events, f) };
        const [pkg, fast] = await both(recorded, chunking, eligibleCall(), cut);
        expect(errorShape(fast.thrown)).toStrictEqual(errorShape(pkg.thrown));
        expect(errorShape(fast.streamError)).toStrictEqual(errorShape(pkg.streamError));
        // The package's stages drop the parts still queued between them when the error arrives, so how many
        // it delivers before the error depends on timing: the fast path delivers at least those, in order,
        // and nothing the whole answer (the same bytes, not cut) would not have given.
        const whole = (await outcome(packageModel(recordedFetch(recorded, chunking)), eligibleCall())).parts.map(comparable);
        const delivered = fast.parts.map(comparable);
        expect(delivered.slice(0, pkg.parts.length)).toStrictEqual(pkg.parts.map(comparable));
        expect(delivered).toStrictEqual(whole.slice(0, delivered.length));
      }),
      { numRuns: 100 },
    );
  });
});
