import { describe, expect, it } from 'vitest';
import type { OrderBy } from '../filter.js';
import { compareSortValues } from '../filter-semantics.js';
import { expectChatwireError, insertAll, readAllPages, type ContractContext } from './contract-context.js';

const seedIds = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${String(i).padStart(3, '0')}`);

function expectNoDuplicates(ids: string[]): void {
  expect(ids.length).toBe(new Set(ids).size);
}

export function describePagination(ctx: ContractContext): void {
  describe('cursor pagination', () => {
    it('an empty collection gives an empty page and no cursor', async () => {
      const page = await ctx.driver.query(ctx.collection('page'), { limit: 10 });
      expect(page).toEqual({ records: [], nextCursor: null });
    });

    it('the last page has nextCursor null, also when the rows fill it exactly', async () => {
      const c = ctx.collection('page');
      const seed = seedIds('s', 20);
      await insertAll(ctx.driver, c, seed.map((_, i) => ({ i })), seed);
      const first = await ctx.driver.query(c, { limit: 10 });
      expect(first.nextCursor).toEqual(expect.any(String));
      const second = await ctx.driver.query(c, { limit: 10, cursor: first.nextCursor as string });
      expect(second.records.map((r) => r.recordId)).toEqual(seed.slice(10));
      expect(second.nextCursor).toBeNull();
    });

    it('createdAt asc: rows inserted between pages come after, nothing duplicated or skipped', async () => {
      const c = ctx.collection('page');
      const seed = seedIds('s', 25);
      await insertAll(ctx.driver, c, seed.map((_, i) => ({ i })), seed);
      const added: string[] = [];
      const seen = await readAllPages(ctx.driver, c, { limit: 4 }, async (page) => {
        const id = `n${page}`;
        added.push(id);
        await ctx.driver.insert(c, { recordId: id, data: { page } });
      });
      expectNoDuplicates(seen);
      expect(seen.slice(0, seed.length)).toEqual(seed);
      expect(seen.slice(seed.length)).toEqual(added.slice(0, seen.length - seed.length));
    });

    it('createdAt desc: newer rows inserted between pages do not appear, older rows all do', async () => {
      const c = ctx.collection('page');
      const seed = seedIds('s', 25);
      await insertAll(ctx.driver, c, seed.map((_, i) => ({ i })), seed);
      const orderBy: OrderBy = { field: 'createdAt', direction: 'desc' };
      const seen = await readAllPages(ctx.driver, c, { limit: 4, orderBy }, (page) =>
        ctx.driver.insert(c, { recordId: `n${page}`, data: { page } }).then(() => undefined),
      );
      expect(seen).toEqual([...seed].reverse());
    });

    for (const direction of ['asc', 'desc'] as const) {
      it(`data field ${direction} with ties and missing values: inserts between pages never duplicate or skip`, async () => {
        const c = ctx.collection('page');
        const seed = seedIds('s', 30);
        await insertAll(ctx.driver, c, seed.map((_, i) => (i % 5 === 0 ? { i } : { i, k: i % 4 })), seed);
        let n = 0;
        const seen = await readAllPages(ctx.driver, c, { limit: 4, orderBy: { field: 'k', direction } }, async () => {
          const k = [0, 2, 3, null][n % 4];
          await ctx.driver.insert(c, { recordId: `n${n++}`, data: { k } });
        });
        expectNoDuplicates(seen);
        for (const id of seed) expect(seen).toContain(id);
        const rows = await Promise.all(seen.map((id) => ctx.driver.get(c, id)));
        const keys = rows.map((r) => r?.data.k ?? null);
        const sorted = [...keys].sort((a, b) => compareSortValues(a, b) * (direction === 'asc' ? 1 : -1));
        expect(keys).toEqual(sorted);
      });
    }

    it('pages of a filtered query contain only matching rows, in order', async () => {
      const c = ctx.collection('page');
      const seed = seedIds('s', 60);
      await insertAll(ctx.driver, c, seed.map((_, i) => ({ chatId: `c${i % 3}` })), seed);
      const seen = await readAllPages(ctx.driver, c, { limit: 7, filter: { chatId: 'c2' } });
      expect(seen).toEqual(seed.filter((_, i) => i % 3 === 2));
    });

    it('deleting the last row of a page does not break the cursor', async () => {
      const c = ctx.collection('page');
      const seed = seedIds('s', 12);
      await insertAll(ctx.driver, c, seed.map((_, i) => ({ k: i % 3 })), seed);
      for (const orderBy of [undefined, { field: 'k' }] as const) {
        const first = await ctx.driver.query(c, { limit: 4, ...(orderBy && { orderBy }) });
        const last = first.records[3]?.recordId as string;
        await ctx.driver.delete(c, last);
        const rest = await ctx.driver.query(c, { limit: 100, cursor: first.nextCursor as string, ...(orderBy && { orderBy }) });
        const all = [...first.records, ...rest.records].map((r) => r.recordId);
        expectNoDuplicates(all);
        expect([...all].sort()).toEqual(seed);
        await ctx.driver.insert(c, { recordId: last, data: { k: Number(last.slice(1)) % 3 } });
      }
    });

    it('a malformed cursor is VALIDATION', async () => {
      const c = ctx.collection('page');
      await ctx.driver.insert(c, { data: { v: 1 } });
      for (const cursor of ['not a cursor!', 'AAAA', 'eyJ4IjoxfQ']) {
        await expectChatwireError(() => ctx.driver.query(c, { limit: 5, cursor }), 'VALIDATION');
      }
    });
  });
}
