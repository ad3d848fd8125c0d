import { describe, expect, it } from 'vitest';
import { insertAll, queryIds, type ContractContext } from './contract-context.js';

export function describeTransactions(ctx: ContractContext): void {
  describe('transactions', () => {
    it('commit: writes inside are visible inside and after', async () => {
      const tx = ctx.driver.transaction.bind(ctx.driver);
      const c = ctx.collection('tx');
      const result = await tx(async (d) => {
        await d.insert(c, { recordId: 'a', data: { v: 1 } });
        await d.update(c, 'a', { v: 2 });
        expect((await d.get(c, 'a'))?.data).toEqual({ v: 2 });
        return 'done';
      });
      expect(result).toBe('done');
      expect((await ctx.driver.get(c, 'a'))?.data).toEqual({ v: 2 });
    });

    it('rollback on throw: inserts, updates, deletes and deleteWhere are undone', async () => {
      const tx = ctx.driver.transaction.bind(ctx.driver);
      const c = ctx.collection('tx');
      await insertAll(ctx.driver, c, [{ v: 1 }, { v: 2 }, { v: 3, g: 'x' }, { v: 4 }], ['a', 'b', 'c', 'd']);
      const before = await ctx.driver.query(c, { limit: 10 });
      const boom = new Error('boom');
      await expect(
        tx(async (d) => {
          await d.insert(c, { recordId: 'new', data: { v: 5 } });
          await d.update(c, 'a', { v: 100, extra: true });
          await d.delete(c, 'b');
          await d.deleteWhere(c, { g: 'x' });
          await d.update(c, 'd', { v: 40 });
          throw boom;
        }),
      ).rejects.toBe(boom);
      expect(await ctx.driver.get(c, 'new')).toBeNull();
      expect(await ctx.driver.query(c, { limit: 10 })).toEqual(before);
      expect(await queryIds(ctx.driver, c, { filter: { g: 'x' } })).toEqual(['c']);
    });

    it('a failing insert inside rolls back the earlier writes', async () => {
      const tx = ctx.driver.transaction.bind(ctx.driver);
      const c = ctx.collection('tx');
      await ctx.driver.insert(c, { recordId: 'a', data: { v: 1 } });
      await expect(
        tx(async (d) => {
          await d.insert(c, { recordId: 'b', data: { v: 2 } });
          await d.insert(c, { recordId: 'a', data: { v: 'different' } });
        }),
      ).rejects.toMatchObject({ code: 'CONFLICT' });
      expect(await queryIds(ctx.driver, c)).toEqual(['a']);
    });

    it('store.asServer().transaction rolls back through the access layer', async () => {
      const c = ctx.collection('tx');
      const store = ctx.store([
        { name: c, columns: [{ name: 'v', type: 'number' }], rules: { read: true, create: true, update: true, delete: true } },
      ]);
      await store.asServer().create(c, { v: 1 }, { recordId: 'a' });
      await expect(
        store.asServer().transaction(async (access) => {
          await access.create(c, { v: 2 }, { recordId: 'b' });
          await access.delete(c, 'a');
          throw new Error('stop');
        }),
      ).rejects.toThrow('stop');
      expect(await queryIds(ctx.driver, c)).toEqual(['a']);
    });
  });
}
