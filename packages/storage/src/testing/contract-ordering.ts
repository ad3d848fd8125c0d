import { describe, expect, it } from 'vitest';
import type { RecordData } from '../record-envelope.js';
import { insertAll, queryIds, type ContractContext } from './contract-context.js';

const ids = (n: number) => Array.from({ length: n }, (_, i) => `r${String(i).padStart(4, '0')}`);

/** [description, values of field k in insertion order (undefined = missing), expected asc order of indexes]. */
const ORDER_CASES: [string, unknown[], number[]][] = [
  ['numbers numerically (not as text), negatives and floats', [-1.5, 10, 2, -20, 0, 9.75], [3, 0, 4, 2, 5, 1]],
  ['strings by code point', ['b', 'B', 'a', 'A', '\u{1F600}', '\uFFFF', 'é', 'aa'], [3, 1, 2, 7, 0, 6, 5, 4]],
  ['booleans false before true', [true, false, true, false], [1, 3, 0, 2]],
  ['ties by insertion order, missing and null last', [3, 1, undefined, 2, 1, null, 3], [1, 4, 3, 0, 6, 2, 5]],
];

export function describeOrdering(ctx: ContractContext): void {
  describe('ordering', () => {
    it('default order is insertion order, even for rows inserted in the same millisecond', async () => {
      const c = ctx.collection('order');
      const expected = ids(200);
      await insertAll(ctx.driver, c, expected.map((_, i) => ({ i })), expected);
      expect(await queryIds(ctx.driver, c)).toEqual(expected);
      expect(await queryIds(ctx.driver, c, { orderBy: { field: 'createdAt' } })).toEqual(expected);
      expect(await queryIds(ctx.driver, c, { orderBy: { field: 'createdAt', direction: 'asc' } })).toEqual(expected);
    });

    it('createdAt desc is the exact reverse of insertion order', async () => {
      const c = ctx.collection('order');
      const expected = ids(200);
      await insertAll(ctx.driver, c, expected.map((_, i) => ({ i })), expected);
      const desc = await queryIds(ctx.driver, c, { orderBy: { field: 'createdAt', direction: 'desc' } });
      expect(desc).toEqual([...expected].reverse());
    });

    it('createdAt values never decrease in insertion order', async () => {
      const c = ctx.collection('order');
      await insertAll(ctx.driver, c, ids(50).map((_, i) => ({ i })), ids(50));
      const page = await ctx.driver.query(c, { limit: 50 });
      const stamps = page.records.map((r) => r.createdAt);
      expect(stamps).toEqual([...stamps].sort());
    });

    it('insertion order holds within a filter', async () => {
      const c = ctx.collection('order');
      const all = ids(120);
      await insertAll(ctx.driver, c, all.map((_, i) => ({ chatId: `c${i % 3}` })), all);
      const expected = all.filter((_, i) => i % 3 === 1);
      expect(await queryIds(ctx.driver, c, { filter: { chatId: 'c1' } })).toEqual(expected);
      const desc = await queryIds(ctx.driver, c, { filter: { chatId: 'c1' }, orderBy: { field: 'createdAt', direction: 'desc' } });
      expect(desc).toEqual([...expected].reverse());
    });

    for (const [label, values, ascOrder] of ORDER_CASES) {
      it(`order by a data field: ${label} (asc, and desc is the exact reverse)`, async () => {
        const c = ctx.collection('order');
        const rowIds = ids(values.length);
        const rows = values.map((v, i): RecordData => (v === undefined ? { i } : { i, k: v }));
        await insertAll(ctx.driver, c, rows, rowIds);
        const expected = ascOrder.map((i) => rowIds[i] as string);
        expect(await queryIds(ctx.driver, c, { orderBy: { field: 'k', direction: 'asc' } })).toEqual(expected);
        expect(await queryIds(ctx.driver, c, { orderBy: { field: 'k' } })).toEqual(expected);
        expect(await queryIds(ctx.driver, c, { orderBy: { field: 'k', direction: 'desc' } })).toEqual([...expected].reverse());
      });
    }

    it('order by a data field combined with a filter and a limit', async () => {
      const c = ctx.collection('order');
      const rowIds = ids(40);
      await insertAll(ctx.driver, c, rowIds.map((_, i) => ({ g: i % 2, k: 40 - i })), rowIds);
      const page = await ctx.driver.query(c, { filter: { g: 0 }, orderBy: { field: 'k', direction: 'asc' }, limit: 3 });
      expect(page.records.map((r) => r.data.k)).toEqual([2, 4, 6]);
    });
  });
}
