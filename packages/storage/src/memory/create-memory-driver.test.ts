import { describe, expect, it } from 'vitest';
import type { Filter } from '../filter.js';
import { createMemoryDriver } from './create-memory-driver.js';

async function seed(chats: number, perChat: number) {
  const driver = createMemoryDriver();
  for (let m = 0; m < perChat; m++) {
    for (let c = 0; c < chats; c++) {
      await driver.insert('msgs', { recordId: `c${c}-m${m}`, data: { chatId: `c${c}`, userId: `u${c % 7}`, role: m % 2 ? 'assistant' : 'user' } });
    }
  }
  return driver;
}

describe('memory driver internals', () => {
  it("an eq filter on chatId reads only that chat's rows, never the other chats", async () => {
    const driver = await seed(200, 50);
    const page = await driver.query('msgs', { filter: { chatId: 'c17', userId: 'u3' }, limit: 50 });
    expect(page.records.map((r) => r.recordId)).toEqual(Array.from({ length: 50 }, (_, m) => `c17-m${m}`));
    expect(driver.lastQueryPlan()).toEqual({ collection: 'msgs', access: 'index:chatId', examined: 50 });
  });

  it('a page with a cursor reads only the rows it returns (plus one to look ahead)', async () => {
    const driver = await seed(100, 50);
    const first = await driver.query('msgs', { filter: { chatId: 'c5' }, limit: 10 });
    await driver.query('msgs', { filter: { chatId: 'c5' }, limit: 10, cursor: first.nextCursor as string, orderBy: { field: 'createdAt' } });
    expect(driver.lastQueryPlan()?.examined).toBe(11);
  });

  it('in filters use the index too', async () => {
    const driver = await seed(100, 10);
    const page = await driver.query('msgs', { filter: { chatId: { in: ['c1', 'c2'] } }, limit: 100 });
    expect(page.records).toHaveLength(20);
    expect(driver.lastQueryPlan()).toMatchObject({ access: 'index:chatId', examined: 20 });
  });

  it("deleteWhere on chatId reads only that chat's rows through the index", async () => {
    const driver = await seed(200, 20);
    expect(await driver.deleteWhere('msgs', { chatId: 'c9' })).toBe(20);
    expect(driver.lastQueryPlan()).toEqual({ collection: 'msgs', access: 'index:chatId', examined: 20 });
    expect(await driver.deleteWhere('msgs', { chatId: 'c9' })).toBe(0);
    expect((await driver.query('msgs', { filter: { chatId: 'c9' }, limit: 50 })).records).toEqual([]);
  });

  it('range-only filters scan the table', async () => {
    const driver = await seed(10, 10);
    await driver.query('msgs', { filter: { chatId: { gte: 'c1', lte: 'c1' } }, limit: 100 });
    expect(driver.lastQueryPlan()).toMatchObject({ access: 'scan', examined: 100 });
  });

  it('indexes stay correct through many updates and deletes (lazy sweeping)', async () => {
    const driver = await seed(4, 200);
    await driver.query('msgs', { filter: { chatId: 'c0' }, limit: 1 }); // builds the index
    for (let m = 0; m < 200; m += 2) await driver.delete('msgs', `c0-m${m}`);
    for (let m = 1; m < 100; m += 2) await driver.update('msgs', `c0-m${m}`, { chatId: 'c1' });
    for (let m = 1; m < 20; m += 2) await driver.update('msgs', `c0-m${m}`, { chatId: 'c0' });
    const c0 = await driver.query('msgs', { filter: { chatId: 'c0' }, limit: 200 });
    const expected = [...Array.from({ length: 10 }, (_, i) => 2 * i + 1), ...Array.from({ length: 50 }, (_, i) => 101 + 2 * i)];
    expect(c0.records.map((r) => r.recordId)).toEqual(expected.map((m) => `c0-m${m}`));
    const c1 = await driver.query('msgs', { filter: { chatId: 'c1' }, limit: 1000 });
    expect(c1.records).toHaveLength(200 + 40);
    const ids = c1.records.map((r) => r.recordId);
    // moved rows keep their insertion position among the rows already there
    expect(ids.indexOf('c1-m21') - ids.indexOf('c0-m21')).toBe(1);
    expect(ids.indexOf('c0-m21') - ids.indexOf('c1-m20')).toBe(1);
  });

  it('timestamps never go backwards when the clock does; order stays insertion order', async () => {
    const times = [5000, 4000, 4000, 6000];
    const driver = createMemoryDriver({ now: () => times.shift() ?? 7000 });
    for (const id of ['a', 'b', 'c', 'd']) await driver.insert('t', { recordId: id, data: {} });
    const page = await driver.query('t', { limit: 10 });
    expect(page.records.map((r) => [r.recordId, r.createdAt.slice(17)])).toEqual([
      ['a', '05.000Z'],
      ['b', '05.000Z'],
      ['c', '05.000Z'],
      ['d', '06.000Z'],
    ]);
  });

  it('transactions run one at a time; a rolled back delete restores the row at its place', async () => {
    const driver = createMemoryDriver();
    for (const id of ['a', 'b', 'c']) await driver.insert('t', { recordId: id, data: { id } });
    const order: string[] = [];
    const first = driver.transaction(async (tx) => {
      order.push('first start');
      await tx.delete('t', 'b');
      await new Promise((r) => setTimeout(r, 20));
      order.push('first end');
      throw new Error('undo');
    });
    const second = driver.transaction(async (tx) => {
      order.push('second start');
      return (await tx.get('t', 'b'))?.data;
    });
    await expect(first).rejects.toThrow('undo');
    expect(await second).toEqual({ id: 'b' });
    expect(order).toEqual(['first start', 'first end', 'second start']);
    expect((await driver.query('t', { limit: 10 })).records.map((r) => r.recordId)).toEqual(['a', 'b', 'c']);
  });

  it('a nested transaction joins the outer one', async () => {
    const driver = createMemoryDriver();
    await expect(
      driver.transaction(async (tx) => {
        await tx.transaction?.(async (inner) => inner.insert('t', { recordId: 'x', data: {} }));
        throw new Error('outer fails');
      }),
    ).rejects.toThrow('outer fails');
    expect(await driver.get('t', 'x')).toBeNull();
  });
});

describe('memory driver: deleted rows leave nothing behind', () => {
  const N = 2_000;
  async function fill() {
    const driver = createMemoryDriver();
    for (let i = 0; i < N; i++) {
      const data = { chatId: `chat-${i}`, userId: `user-${i % 50}`, n: i, flag: i % 2 === 0, content: 'x'.repeat(200) };
      await driver.insert('msgs', { recordId: `m${i}`, data });
    }
    // Build an index on every field (each distinct value gets its own list).
    const filters: Filter[] = [{ chatId: 'chat-1' }, { userId: 'user-1' }, { n: 1 }, { flag: true }];
    for (const filter of filters) {
      await driver.query('msgs', { filter, limit: 1 });
    }
    return driver;
  }

  it(`deleting ${N} rows one by one and by filter empties the rows, every index list and every index value`, async () => {
    const driver = await fill();
    expect(driver.stats()).toEqual({ rows: N, indexEntries: N * 5, indexValues: N + 50 + N + 2 });
    for (let i = 0; i < N; i += 2) expect(await driver.delete('msgs', `m${i}`)).toBe(true);
    for (let u = 0; u < 50; u++) await driver.deleteWhere('msgs', { userId: `user-${u}` });
    expect(driver.stats()).toEqual({ rows: 0, indexEntries: 0, indexValues: 0 });
    expect((await driver.query('msgs', { limit: 10 })).records).toEqual([]);
    expect((await driver.query('msgs', { filter: { flag: true }, limit: 10 })).records).toEqual([]);
  });

  it('partial deletes keep no deleted row reachable: freed slots are compacted, empty values dropped', async () => {
    const driver = await fill();
    await driver.deleteWhere('msgs', { userId: 'user-7' }); // 40 rows
    const stats = driver.stats();
    expect(stats.rows).toBe(N - 40);
    expect(stats.indexValues).toBe(N - 40 + 49 + N - 40 + 2);
    const page = await driver.query('msgs', { filter: { userId: 'user-8' }, limit: 100 });
    expect(page.records).toHaveLength(40);
  });

  it('an update that moves a row to another value drops the emptied value; a rolled back delete restores every entry', async () => {
    const driver = createMemoryDriver();
    await driver.insert('t', { recordId: 'a', data: { chatId: 'one' } });
    await driver.query('t', { filter: { chatId: 'one' }, limit: 1 });
    await driver.update('t', 'a', { chatId: 'two' });
    expect(driver.stats()).toEqual({ rows: 1, indexEntries: 2, indexValues: 1 });
    expect((await driver.query('t', { filter: { chatId: 'two' }, limit: 5 })).records).toHaveLength(1);
    await expect(
      driver.transaction(async (tx) => {
        await tx.deleteWhere('t', { chatId: 'two' });
        expect(driver.stats()).toEqual({ rows: 0, indexEntries: 0, indexValues: 0 });
        throw new Error('undo');
      }),
    ).rejects.toThrow('undo');
    expect(driver.stats()).toEqual({ rows: 1, indexEntries: 2, indexValues: 1 });
    expect((await driver.query('t', { filter: { chatId: 'two' }, limit: 5 })).records.map((r) => r.recordId)).toEqual(['a']);
  });
});
