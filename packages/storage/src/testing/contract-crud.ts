import { describe, expect, it } from 'vitest';
import { RECORD_ID_PATTERN } from '../access/store-limits.js';
import { expectChatwireError, insertAll, queryIds, type ContractContext } from './contract-context.js';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export function describeCrud(ctx: ContractContext): void {
  describe('CRUD', () => {
    it('insert without recordId generates a valid id and ISO timestamps', async () => {
      const c = ctx.collection('crud');
      const { record, created } = await ctx.driver.insert(c, { data: { title: 'hello' } });
      expect(created).toBe(true);
      expect(record.recordId).toMatch(RECORD_ID_PATTERN);
      expect(record.data).toEqual({ title: 'hello' });
      expect(record.createdAt).toMatch(ISO);
      expect(record.updatedAt).toBe(record.createdAt);
      expect(await ctx.driver.get(c, record.recordId)).toEqual(record);
    });

    it('generated ids are unique', async () => {
      const c = ctx.collection('crud');
      const ids = await insertAll(ctx.driver, c, Array.from({ length: 50 }, (_, i) => ({ i })));
      expect(new Set(ids).size).toBe(50);
    });

    it('round-trips JSON values exactly', async () => {
      const c = ctx.collection('crud');
      const data = {
        text: 'unicode ✓ 😀 \u0000-free "quotes" \\ slash',
        int: 42,
        float: -3.25,
        zero: 0,
        yes: true,
        no: false,
        nothing: null,
        nested: { a: [1, 'two', { three: 3 }], empty: {} },
        list: [],
      };
      await ctx.driver.insert(c, { recordId: 'r1', data });
      expect((await ctx.driver.get(c, 'r1'))?.data).toEqual(data);
    });

    it('get returns null for unknown ids and other collections', async () => {
      const c = ctx.collection('crud');
      const other = ctx.collection('crud');
      await ctx.driver.insert(c, { recordId: 'x:1', data: { v: 1 } });
      expect(await ctx.driver.get(c, 'missing')).toBeNull();
      expect(await ctx.driver.get(other, 'x:1')).toBeNull();
      expect(await queryIds(ctx.driver, other)).toEqual([]);
    });

    it('returned records are copies: mutating them does not change the store', async () => {
      const c = ctx.collection('crud');
      const data = { nested: { v: 1 } };
      const { record } = await ctx.driver.insert(c, { recordId: 'r1', data });
      data.nested.v = 2;
      (record.data.nested as { v: number }).v = 3;
      const read = await ctx.driver.get(c, 'r1');
      (read?.data.nested as { v: number }).v = 4;
      expect((await ctx.driver.get(c, 'r1'))?.data).toEqual({ nested: { v: 1 } });
    });

    it('same recordId with equal data is an idempotent no-op (key order does not matter)', async () => {
      const c = ctx.collection('crud');
      const first = await ctx.driver.insert(c, { recordId: 'm-1', data: { a: 1, b: { x: [1, 2] } } });
      const again = await ctx.driver.insert(c, { recordId: 'm-1', data: { b: { x: [1, 2] }, a: 1 } });
      expect(again.created).toBe(false);
      expect(again.record).toEqual(first.record);
      expect(await queryIds(ctx.driver, c)).toEqual(['m-1']);
    });

    it('same recordId with different data is CONFLICT and keeps the original', async () => {
      const c = ctx.collection('crud');
      await ctx.driver.insert(c, { recordId: 'm-1', data: { a: 1 } });
      await expectChatwireError(() => ctx.driver.insert(c, { recordId: 'm-1', data: { a: 2 } }), 'CONFLICT');
      await expectChatwireError(() => ctx.driver.insert(c, { recordId: 'm-1', data: { a: 1, b: 1 } }), 'CONFLICT');
      expect((await ctx.driver.get(c, 'm-1'))?.data).toEqual({ a: 1 });
    });

    it('the same recordId may exist in two collections', async () => {
      const a = ctx.collection('crud');
      const b = ctx.collection('crud');
      await ctx.driver.insert(a, { recordId: 'same', data: { v: 'a' } });
      const { created } = await ctx.driver.insert(b, { recordId: 'same', data: { v: 'b' } });
      expect(created).toBe(true);
      expect((await ctx.driver.get(a, 'same'))?.data).toEqual({ v: 'a' });
    });

    it('update is a shallow patch: other fields kept, nested values replaced, createdAt kept', async () => {
      const c = ctx.collection('crud');
      const { record } = await ctx.driver.insert(c, { recordId: 'r1', data: { a: 1, b: 'keep', o: { x: 1, y: 2 } } });
      const updated = await ctx.driver.update(c, 'r1', { a: 2, o: { z: 3 }, added: true, b: null });
      expect(updated?.data).toEqual({ a: 2, b: null, o: { z: 3 }, added: true });
      expect(updated?.createdAt).toBe(record.createdAt);
      expect(updated && updated.updatedAt >= record.createdAt).toBe(true);
      expect(await ctx.driver.get(c, 'r1')).toEqual(updated);
    });

    it('update with an empty patch changes no field and bumps updatedAt (a touch), through the access layer too', async () => {
      const c = ctx.collection('crud');
      const { record } = await ctx.driver.insert(c, { recordId: 'r1', data: { title: 'kept', n: 1 } });
      const later = async (iso: string) => {
        while (Date.now() <= Date.parse(iso) + 1) await new Promise((resolve) => setTimeout(resolve, 2));
      };
      await later(record.updatedAt);
      const touched = await ctx.driver.update(c, 'r1', {});
      expect(touched?.data).toEqual({ title: 'kept', n: 1 });
      expect(touched?.createdAt).toBe(record.createdAt);
      expect(touched && touched.updatedAt > record.updatedAt).toBe(true);
      const store = ctx.store([
        { name: c, columns: [{ name: 'title', type: 'string' }, { name: 'n', type: 'number' }], rules: { read: true, create: true, update: true, delete: true } },
      ]);
      await later(touched?.updatedAt ?? '');
      const again = await store.asServer().update(c, 'r1', {});
      expect(again.data).toEqual({ title: 'kept', n: 1 });
      expect(again.updatedAt > (touched?.updatedAt ?? '')).toBe(true);
      expect(await ctx.driver.get(c, 'r1')).toEqual(again);
    });

    it('update of a missing row returns null and creates nothing', async () => {
      const c = ctx.collection('crud');
      expect(await ctx.driver.update(c, 'nope', { a: 1 })).toBeNull();
      expect(await ctx.driver.get(c, 'nope')).toBeNull();
    });

    it('update keeps the row in its insertion position', async () => {
      const c = ctx.collection('crud');
      await insertAll(ctx.driver, c, [{ v: 1 }, { v: 2 }, { v: 3 }], ['a', 'b', 'c']);
      await ctx.driver.update(c, 'a', { v: 10 });
      expect(await queryIds(ctx.driver, c)).toEqual(['a', 'b', 'c']);
    });

    it('delete removes the row once; a new row may reuse the id afterwards', async () => {
      const c = ctx.collection('crud');
      await insertAll(ctx.driver, c, [{ v: 1 }, { v: 2 }], ['a', 'b']);
      expect(await ctx.driver.delete(c, 'a')).toBe(true);
      expect(await ctx.driver.delete(c, 'a')).toBe(false);
      expect(await ctx.driver.get(c, 'a')).toBeNull();
      expect(await queryIds(ctx.driver, c)).toEqual(['b']);
      const { created } = await ctx.driver.insert(c, { recordId: 'a', data: { v: 3 } });
      expect(created).toBe(true);
      expect(await queryIds(ctx.driver, c)).toEqual(['b', 'a']);
    });

    it('deleteWhere deletes exactly the matching rows and returns the count', async () => {
      const c = ctx.collection('crud');
      const other = ctx.collection('crud');
      await insertAll(ctx.driver, c, [{ chatId: 'x' }, { chatId: 'y' }, { chatId: 'x' }, {}], ['1', '2', '3', '4']);
      await ctx.driver.insert(other, { recordId: '1', data: { chatId: 'x' } });
      expect(await ctx.driver.deleteWhere(c, { chatId: 'x' })).toBe(2);
      expect(await queryIds(ctx.driver, c)).toEqual(['2', '4']);
      expect(await ctx.driver.deleteWhere(c, { chatId: 'x' })).toBe(0);
      expect(await queryIds(ctx.driver, other)).toEqual(['1']);
      expect(await ctx.driver.deleteWhere(c, { chatId: { in: ['y', null] } })).toBe(2);
      expect(await queryIds(ctx.driver, c)).toEqual([]);
    });
  });
}
