import { createRecordStore } from '@chatwire/storage';
import { createMemoryDriver } from '@chatwire/storage/memory';
import { describe, expect, it } from 'vitest';
import { AI_TURNS, CHAT_COLLECTIONS } from '../records/chat-collections.js';
import { addTurnToUsageLedger, type TurnRowUsage } from './add-to-usage-ledger.js';
import { backfillUsageLedger } from './backfill-usage-ledger.js';
import { parseUsageQuery } from './parse-usage-query.js';
import { readUsage } from './read-usage.js';

function legacyStore() {
  let clock = Date.parse('2026-03-01T08:00:00Z');
  const store = createRecordStore({ driver: createMemoryDriver({ now: () => clock }), collections: CHAT_COLLECTIONS });
  const server = store.asServer();
  let n = 0;
  /** A turn row as stored at `at`; `counted`: stored with the ledger (added to it in the same transaction). */
  const turn = async (at: string, userId: string, modelId: string, input: number, counted: boolean) => {
    clock = Date.parse(at);
    const id = `turn-${++n}`;
    const data = {
      chatId: 'c1',
      userId,
      userMessageId: `u${n}`,
      assistantMessageId: id,
      modelId,
      provider: 'test',
      finishReason: 'stop',
      usage: { input, output: 2, total: input + 2, reasoning: null, cached: null },
      steps: 1,
      toolCalls: [],
      durationMs: 5,
      ...(counted ? { usageCounted: true } : {}),
    };
    await server.transaction(async (tx) => {
      const row = await tx.create<TurnRowUsage>(AI_TURNS, data, { recordId: id });
      if (counted) await addTurnToUsageLedger(tx, row);
    });
  };
  const usage = (userId = 'alice') => readUsage(store, userId, parseUsageQuery({ from: '2026-02-01', to: '2026-03-31' }));
  return { store, server, turn, usage };
}

describe('backfillUsageLedger', () => {
  it('adds the turn rows stored before the ledger, once, next to those stored with it', async () => {
    const s = legacyStore();
    await s.turn('2026-02-27T10:00:00Z', 'alice', 'm-a', 10, false);
    await s.turn('2026-02-27T11:00:00Z', 'alice', 'm-a', 20, false);
    await s.turn('2026-02-27T12:00:00Z', 'bob', 'm-a', 5, false);
    await s.turn('2026-02-28T09:00:00Z', 'alice', 'm-b', 30, false);
    // The upgrade: from here on turns are counted as they are stored, the same day included.
    await s.turn('2026-02-28T10:00:00Z', 'alice', 'm-b', 40, true);
    await s.turn('2026-02-28T11:00:00Z', 'alice', 'm-b', 50, false); // an old process still running
    await s.turn('2026-03-01T10:00:00Z', 'alice', 'm-a', 60, true);
    expect(await s.usage()).toMatchObject([
      { date: '2026-02-28', turns: 1, inputTokens: 40 },
      { date: '2026-03-01', turns: 1, inputTokens: 60 },
    ]);

    expect(await backfillUsageLedger(s.store, { batchSize: 2 })).toEqual({ turns: 5 });
    const expected = [
      { date: '2026-02-27', modelId: 'm-a', turns: 2, inputTokens: 30, outputTokens: 4, totalTokens: 34 },
      { date: '2026-02-28', modelId: 'm-b', turns: 3, inputTokens: 120, outputTokens: 6, totalTokens: 126 },
      { date: '2026-03-01', modelId: 'm-a', turns: 1, inputTokens: 60, outputTokens: 2, totalTokens: 62 },
    ];
    expect(await s.usage()).toEqual(expected);
    expect(await s.usage('bob')).toEqual([{ date: '2026-02-27', modelId: 'm-a', turns: 1, inputTokens: 5, outputTokens: 2, totalTokens: 7 }]);
    const rows = (await s.server.query(AI_TURNS, { limit: 200 })).records;
    expect(rows.every((row) => row.data.usageCounted === true)).toBe(true);

    // Again, or twice at once: nothing more is counted.
    expect(await backfillUsageLedger(s.store)).toEqual({ turns: 0 });
    await s.turn('2026-03-01T11:00:00Z', 'alice', 'm-a', 1, false);
    const both = await Promise.all([backfillUsageLedger(s.store, { batchSize: 1 }), backfillUsageLedger(s.store, { batchSize: 1 })]);
    expect(both[0].turns + both[1].turns).toBe(1);
    expect((await s.usage()).at(-1)).toMatchObject({ date: '2026-03-01', turns: 2, inputTokens: 61 });
  });

  it('a bad batchSize is a CONFIGURATION error', async () => {
    await expect(backfillUsageLedger(legacyStore().store, { batchSize: 0 })).rejects.toMatchObject({ code: 'CONFIGURATION' });
  });
});
