import { createRecordStore } from '@chatwire/storage';
import { createMemoryDriver } from '@chatwire/storage/memory';
import { describe, expect, it } from 'vitest';
import { CHAT_COLLECTIONS } from '../records/chat-collections.js';
import { addToUsageLedger } from './add-to-usage-ledger.js';
import { parseUsageQuery } from './parse-usage-query.js';
import { readUsage } from './read-usage.js';
import { DAY_MS, utcDate } from './utc-day.js';

function ledger() {
  let clock = Date.parse('2026-01-01T00:00:00Z');
  const store = createRecordStore({ driver: createMemoryDriver({ now: () => clock }), collections: CHAT_COLLECTIONS });
  let n = 0;
  /** Adds a turn of `tokens` for `userId` and `modelId` on the day `date`, with the store's clock at `at`. */
  const add = (at: string, userId: string, modelId: string, tokens: number, date = at.slice(0, 10)) => {
    clock = Date.parse(at);
    return store
      .asServer()
      .transaction((tx) => addToUsageLedger(tx, { userId, date, modelId }, { turns: 1, inputTokens: tokens, outputTokens: 1, totalTokens: tokens + 1 }, `t${++n}`));
  };
  const usage = (from: string, to: string, userId = 'alice') => readUsage(store, userId, parseUsageQuery({ from, to }));
  return { add, usage };
}

describe('readUsage (the usage ledger)', () => {
  it('the rows of the days from..to (both included), the caller’s only, sorted by date then model', async () => {
    const l = ledger();
    await l.add('2026-02-28T23:00:00.000Z', 'alice', 'm-a', 1);
    await l.add('2026-03-01T10:00:00.000Z', 'alice', 'm-b', 10);
    await l.add('2026-03-01T11:00:00.000Z', 'alice', 'm-a', 20);
    await l.add('2026-03-01T12:00:00.000Z', 'bob', 'm-a', 99);
    await l.add('2026-03-02T00:00:00.000Z', 'alice', 'm-a', 30);
    await l.add('2026-03-02T23:59:59.999Z', 'alice', 'm-a', 40);
    await l.add('2026-03-03T00:00:00.000Z', 'alice', 'm-a', 50);
    expect(await l.usage('2026-03-01', '2026-03-02')).toEqual([
      { date: '2026-03-01', modelId: 'm-a', turns: 1, inputTokens: 20, outputTokens: 1, totalTokens: 21 },
      { date: '2026-03-01', modelId: 'm-b', turns: 1, inputTokens: 10, outputTokens: 1, totalTokens: 11 },
      { date: '2026-03-02', modelId: 'm-a', turns: 2, inputTokens: 70, outputTokens: 2, totalTokens: 72 },
    ]);
    expect(await l.usage('2026-03-03', '2026-03-03')).toMatchObject([{ date: '2026-03-03', inputTokens: 50 }]);
    expect(await l.usage('2026-02-01', '2026-02-28')).toMatchObject([{ date: '2026-02-28', inputTokens: 1 }]);
    expect(await l.usage('2026-03-04', '2026-03-31')).toEqual([]);
  });

  it('a day’s row created just after midnight (its turn was stored at 23:59:59.999) still counts for its day', async () => {
    const l = ledger();
    await l.add('2026-03-02T00:00:00.002Z', 'alice', 'm-a', 7, '2026-03-01');
    expect(await l.usage('2026-03-01', '2026-03-01')).toMatchObject([{ date: '2026-03-01', inputTokens: 7 }]);
    expect(await l.usage('2026-03-02', '2026-03-02')).toEqual([]);
  });

  it('reads past a page: 366 days of 3 models', async () => {
    const l = ledger();
    const start = Date.parse('2025-03-01T12:00:00Z');
    for (let day = 0; day < 366; day++) {
      for (const model of ['m-a', 'm-b', 'm-c']) await l.add(new Date(start + day * DAY_MS).toISOString(), 'alice', model, day);
    }
    const rows = await l.usage(utcDate(start), utcDate(start + 365 * DAY_MS));
    expect(rows).toHaveLength(366 * 3);
    expect(rows.reduce((sum, row) => sum + row.inputTokens, 0)).toBe(3 * ((365 * 366) / 2));
    expect(rows[0]).toMatchObject({ date: '2025-03-01', modelId: 'm-a' });
    expect(rows.at(-1)).toMatchObject({ date: '2026-03-01', modelId: 'm-c' });
  });
});
