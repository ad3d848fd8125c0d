import { describe, expect, it } from 'vitest';
import { ChatwireError } from '../chatwire-error.js';
import type { CollectionDefinition } from '../collection-definition.js';
import { createRecordStore } from '../create-record-store.js';
import { createMemoryDriver } from '../memory/index.js';
import type { RecordEnvelope } from '../record-envelope.js';
import type { StoreDriver } from '../store-driver.js';

const NOTES: CollectionDefinition = {
  name: 'notes',
  columns: [
    { name: 'userId', type: 'string' },
    { name: 'title', type: 'string' },
  ],
  rules: { read: 'own', create: true, update: 'own', delete: 'own' },
};

/** The memory driver, with or without a `getMany` (counting the calls of each). */
function counting(withGetMany: boolean) {
  const inner = createMemoryDriver();
  const calls: string[] = [];
  const driver: StoreDriver = {
    ...inner,
    get: (collection, id) => (calls.push('get'), inner.get(collection, id)),
    ...(withGetMany && {
      getMany: async (collection: string, ids: readonly string[]) => {
        calls.push('getMany');
        return (await Promise.all(ids.map((id) => inner.get(collection, id)))).filter((row): row is RecordEnvelope => row !== null);
      },
    }),
  };
  return { driver, calls };
}

for (const withGetMany of [true, false]) {
  describe(`findMany, driver ${withGetMany ? 'with' : 'without'} getMany`, () => {
    it("returns the caller's readable rows by id, one driver call when it can, duplicates looked up once", async () => {
      const { driver, calls } = counting(withGetMany);
      const store = createRecordStore({ driver, collections: [NOTES] });
      const server = store.asServer();
      await server.create('notes', { userId: 'ann', title: 'A' }, { recordId: 'a' });
      await server.create('notes', { userId: 'ann', title: 'B' }, { recordId: 'b' });
      await server.create('notes', { userId: 'bob', title: 'Bob' }, { recordId: 'x' });
      calls.length = 0;

      const found = await store.asCaller({ userId: 'ann' }).findMany('notes', ['a', 'x', 'missing', 'b', 'a']);
      expect([...found.keys()].sort()).toEqual(['a', 'b']);
      expect(found.get('b')?.data.title).toBe('B');
      expect(calls).toEqual(withGetMany ? ['getMany'] : ['get', 'get', 'get', 'get']);
      expect([...(await server.findMany('notes', ['x', 'a'])).keys()].sort()).toEqual(['a', 'x']);
      expect((await store.asCaller({ userId: 'ann' }).findMany('notes', [])).size).toBe(0);
    });

    it('refuses bad ids and too many ids with VALIDATION', async () => {
      const store = createRecordStore({ driver: counting(withGetMany).driver, collections: [NOTES] });
      const access = store.asCaller({ userId: 'ann' });
      for (const ids of [[''], [42 as unknown as string], Array.from({ length: 201 }, (_, i) => `n${i}`)]) {
        await expect(access.findMany('notes', ids)).rejects.toSatisfy((e) => ChatwireError.is(e) && e.code === 'VALIDATION');
      }
    });
  });
}
