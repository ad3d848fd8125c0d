import { describe, expect, it } from 'vitest';
import { createRecordStore } from './create-record-store.js';
import { ChatwireError } from './chatwire-error.js';
import type { CollectionDefinition } from './collection-definition.js';
import type { StoreDriver } from './store-driver.js';
import { createMemoryDriver } from './memory/index.js';

const notes = (overrides: Partial<CollectionDefinition> = {}): CollectionDefinition => ({
  name: 'notes',
  columns: [
    { name: 'userId', type: 'string' },
    { name: 'title', type: 'string' },
    { name: 'body', type: 'string' },
    { name: 'rank', type: 'number' },
  ],
  rules: { read: 'own', create: true, update: 'own', delete: 'own' },
  ...overrides,
});

const codeOf = async (fn: () => unknown) => {
  try {
    await fn();
    return 'OK';
  } catch (error) {
    return ChatwireError.is(error) ? error.code : `non-chatwire: ${String(error)}`;
  }
};

describe('createRecordStore: configuration', () => {
  it('rejects bad definitions with CONFIGURATION naming the problem', () => {
    const store = createRecordStore({ driver: createMemoryDriver() });
    const bad: [Partial<CollectionDefinition>, RegExp][] = [
      [{ name: 'has space' }, /name must match/],
      [{ columns: [{ name: 'createdAt', type: 'string' }] }, /clashes with the record envelope/],
      [{ columns: [{ name: 'a', type: 'string' }, { name: 'a', type: 'number' }] }, /declared twice/],
      [{ columns: [{ name: 'a', type: 'date' as never }] }, /unknown type "date"/],
      [{ columns: [{ name: 'title', type: 'string' }] }, /'own' rules need a string column "userId"/],
      [{ ownerField: 'owner' }, /'own' rules need a string column "owner"/],
      [{ rules: { read: 'mine' as never, create: true, update: true, delete: true } }, /rule "read"/],
    ];
    for (const [override, message] of bad) {
      expect(() => store.register(notes(override))).toThrow(message);
      expect(() => store.register(notes(override))).toThrow(expect.objectContaining({ code: 'CONFIGURATION' }));
    }
    expect(store.collections()).toEqual([]);
  });

  it('register is idempotent for an equal definition and refuses a different one', () => {
    const store = createRecordStore({ driver: createMemoryDriver(), collections: [notes()] });
    expect(() => store.register(notes())).not.toThrow();
    expect(() => store.register(notes({ hidden: true }))).toThrow(/already registered/);
    expect(store.collection('notes').name).toBe('notes');
    expect(() => store.collection('nope')).toThrow(expect.objectContaining({ code: 'VALIDATION' }));
    expect(store.hasCollection('nope')).toBe(false);
  });

  it('rejects bad limits options and callers without a userId', () => {
    expect(() => createRecordStore({ driver: createMemoryDriver(), maxQueryLimit: 0 })).toThrow(/maxQueryLimit/);
    const store = createRecordStore({ driver: createMemoryDriver() });
    expect(() => store.asCaller({ userId: '' })).toThrow(expect.objectContaining({ code: 'VALIDATION' }));
    expect(() => store.asCaller({ userId: 'u', role: 5 as never })).toThrow(/role/);
  });

  it('refuses a driver without declared capabilities, transactions or leases (CONFIGURATION naming what is missing)', () => {
    const full = createMemoryDriver();
    const without = (key: keyof StoreDriver): StoreDriver => {
      const copy = { ...full } as Record<string, unknown>;
      delete copy[key];
      return copy as unknown as StoreDriver;
    };
    expect(() => createRecordStore({ driver: without('capabilities') })).toThrow(/has no capabilities/);
    expect(() => createRecordStore({ driver: without('transaction') })).toThrow(/has no transaction\(\)/);
    expect(() => createRecordStore({ driver: without('leases') })).toThrow(/has no leases/);
    expect(() => createRecordStore({ driver: without('notifications') })).toThrow(/has no notifications although/);
    expect(() => createRecordStore({ driver: without('search') })).toThrow(/has no search\(\) although/);
    expect(() => createRecordStore({ driver: without('leases') })).toThrow(expect.objectContaining({ code: 'CONFIGURATION' }));
    const quiet = { ...without('notifications'), capabilities: { sharedLeases: false, notifications: false } };
    expect(createRecordStore({ driver: quiet }).capabilities.notifications).toBe(false);
  });

  it("exposes the driver's leases and capabilities as they are", () => {
    const driver = createMemoryDriver();
    const store = createRecordStore({ driver });
    expect(store.driver).toBe(driver);
    expect(store.leases).toBe(driver.leases);
    expect(store.capabilities).toEqual({ sharedLeases: false, notifications: true, fullText: true });
  });

  it('does not depend on the memory driver (no import from ./memory/)', async () => {
    const { readFile } = await import('node:fs/promises');
    const source = await readFile(new URL('./create-record-store.ts', import.meta.url), 'utf8');
    expect(source).not.toMatch(/from '\.\/memory\//);
  });
});

describe('createRecordStore: access edge cases', () => {
  const setup = (def = notes(), options: { maxQueryLimit?: number } = {}) => {
    const driver = createMemoryDriver();
    const store = createRecordStore({ driver, collections: [def], ...options });
    return { driver, store, server: store.asServer(), alice: store.asCaller({ userId: 'alice' }), bob: store.asCaller({ userId: 'bob' }) };
  };

  it("fills the owner when any rule is 'own' even if create is true; the server gets no owner", async () => {
    const { server, alice } = setup();
    expect((await alice.create('notes', { title: 'a' })).data.userId).toBe('alice');
    expect((await server.create('notes', { title: 's' })).data).toEqual({ title: 's' });
  });

  it('stores a nested "__proto__" key as data: it never becomes fields the input did not have', async () => {
    const def = notes({ columns: [...notes().columns, { name: 'meta', type: 'object' }] });
    const { alice } = setup(def);
    const input = JSON.parse('{"title":"t","meta":{"__proto__":{"isAdmin":true}}}') as Record<string, unknown>;
    const created = await alice.create('notes', input);
    const read = await alice.get('notes', created.recordId);
    const patched = await alice.update('notes', created.recordId, JSON.parse('{"meta":{"__proto__":{"role":"admin"}}}'));
    for (const meta of [created.data.meta, read.data.meta, patched.data.meta] as Record<string, unknown>[]) {
      expect(Object.getPrototypeOf(meta)).toBe(Object.prototype);
      expect(Object.keys(meta)).toEqual(['__proto__']);
      expect(meta.isAdmin).toBeUndefined();
      expect(meta.role).toBeUndefined();
    }
    expect(JSON.stringify(read.data.meta)).toBe('{"__proto__":{"isAdmin":true}}');
  });

  it('with create: true a caller may set another owner, but then cannot read the row back', async () => {
    const { alice, bob } = setup();
    const row = await alice.create('notes', { title: 'gift', userId: 'bob' });
    expect(await alice.find('notes', row.recordId)).toBeNull();
    expect((await bob.get('notes', row.recordId)).data.title).toBe('gift');
  });

  it('honours a custom ownerField', async () => {
    const def = notes({
      columns: [{ name: 'ownerId', type: 'string' }, { name: 'title', type: 'string' }],
      ownerField: 'ownerId',
    });
    const { alice, bob } = setup(def);
    const row = await alice.create('notes', { title: 'x' });
    expect(row.data.ownerId).toBe('alice');
    expect(await codeOf(() => bob.get('notes', row.recordId))).toBe('NOT_FOUND');
    expect(await codeOf(() => alice.update('notes', row.recordId, { ownerId: 'bob' }))).toBe('FORBIDDEN');
  });

  it('null clears an optional field, undefined properties are ignored, input objects are copied', async () => {
    const { alice } = setup();
    const input = { title: 't', body: 'b', rank: undefined };
    const row = await alice.create('notes', input);
    input.title = 'mutated';
    expect(row.data).toEqual({ title: 't', body: 'b', userId: 'alice' });
    const updated = await alice.update('notes', row.recordId, { body: null, rank: undefined });
    expect(updated.data).toEqual({ title: 't', body: null, userId: 'alice' });
    expect((await alice.query('notes', { filter: { body: { exists: false } } })).records).toHaveLength(1);
  });

  it('query limit defaults to 50 and is capped by maxQueryLimit', async () => {
    const { server, alice } = setup(notes(), { maxQueryLimit: 60 });
    for (let i = 0; i < 70; i++) await alice.create('notes', { rank: i });
    expect((await alice.query('notes')).records).toHaveLength(50);
    expect((await alice.query('notes', { limit: 60 })).records).toHaveLength(60);
    expect(await codeOf(() => server.query('notes', { limit: 61 }))).toBe('VALIDATION');
  });

  it("a cursor only fits the caller that got it (the owner filter is part of the query)", async () => {
    const { alice, bob } = setup();
    for (let i = 0; i < 3; i++) {
      await alice.create('notes', { rank: i });
      await bob.create('notes', { rank: i });
    }
    const page = await alice.query('notes', { limit: 2 });
    expect(await codeOf(() => bob.query('notes', { limit: 2, cursor: page.nextCursor as string }))).toBe('VALIDATION');
    const next = await alice.query('notes', { limit: 2, cursor: page.nextCursor as string });
    expect(next.records.map((r) => r.data.rank)).toEqual([2]);
    expect(next.nextCursor).toBeNull();
  });

  it('a cursor minted on a first page, and one minted from a cursor, only fit their own query', async () => {
    const { server } = setup();
    for (let i = 0; i < 5; i++) await server.create('notes', { userId: i % 2 ? 'bob' : 'alice', rank: i });
    const first = await server.query('notes', { limit: 2 });
    const other = { limit: 2, cursor: first.nextCursor as string };
    expect(await codeOf(() => server.query('notes', { ...other, orderBy: { field: 'createdAt', direction: 'desc' } }))).toBe('VALIDATION');
    expect(await codeOf(() => server.query('notes', { ...other, filter: { userId: 'alice' } }))).toBe('VALIDATION');
    const second = await server.query('notes', other);
    expect(second.records.map((r) => r.data.rank)).toEqual([2, 3]);
    expect(await codeOf(() => server.query('notes', { limit: 2, filter: { userId: 'bob' }, cursor: second.nextCursor as string }))).toBe('VALIDATION');
    const third = await server.query('notes', { limit: 2, cursor: second.nextCursor as string });
    expect(third.records.map((r) => r.data.rank)).toEqual([4]);
    expect(third.nextCursor).toBeNull();
  });

  it('an access still works wrapped in a Proxy, and get/describe do not go through the wrapper', async () => {
    const { alice } = setup();
    const created = await alice.create('notes', { rank: 1 });
    const wrapped = new Proxy(alice, {
      get: (target, key, receiver) =>
        key === 'find' || key === 'listCollections' ? () => { throw new Error('wrapped'); } : (Reflect.get(target, key, receiver) as unknown),
    });
    expect((await wrapped.get('notes', created.recordId)).data.rank).toBe(1);
    expect(wrapped.describe('notes').name).toBe('notes');
    expect((await wrapped.query('notes')).records).toHaveLength(1);
    expect(wrapped.caller).toEqual({ userId: 'alice' });
  });

  it('a null cursor means the first page', async () => {
    const { alice } = setup();
    await alice.create('notes', { rank: 1 });
    expect((await alice.query('notes', { cursor: null as never })).records).toHaveLength(1);
  });

  it('update and delete of a readable row without the write right are NOT_FOUND when row-level, FORBIDDEN when collection-level', async () => {
    const { server, store } = setup(notes({ rules: { read: true, create: true, update: 'own', delete: ['admin'] } }));
    const row = await server.create('notes', { userId: 'alice', title: 't' });
    const bob = store.asCaller({ userId: 'bob' });
    expect(await codeOf(() => bob.update('notes', row.recordId, { title: 'x' }))).toBe('NOT_FOUND');
    expect(await codeOf(() => bob.delete('notes', row.recordId))).toBe('FORBIDDEN');
    expect(await codeOf(() => store.asCaller({ userId: 'z', role: 'admin' }).delete('notes', row.recordId))).toBe('OK');
  });

  it('write rights need read rights: with read false an update is NOT_FOUND', async () => {
    const { server, alice } = setup(notes({ rules: { read: false, create: true, update: true, delete: true } }));
    const row = await server.create('notes', { userId: 'alice', title: 't' });
    expect(await codeOf(() => alice.update('notes', row.recordId, { title: 'x' }))).toBe('NOT_FOUND');
    expect(await codeOf(() => alice.get('notes', row.recordId))).toBe('FORBIDDEN');
  });

  it('listCollections and describe hide hidden and unreachable collections from callers', () => {
    const store = createRecordStore({
      driver: createMemoryDriver(),
      collections: [
        notes(),
        notes({ name: 'ai-messages', hidden: true }),
        notes({ name: 'audit', rules: { read: ['admin'], create: false, update: false, delete: false } }),
      ],
    });
    const names = (list: CollectionDefinition[]) => list.map((d) => d.name);
    expect(names(store.asCaller({ userId: 'u' }).listCollections())).toEqual(['notes']);
    expect(names(store.asCaller({ userId: 'u', role: 'admin' }).listCollections())).toEqual(['notes', 'audit']);
    expect(names(store.asServer().listCollections())).toEqual(['notes', 'ai-messages', 'audit']);
    expect(() => store.asCaller({ userId: 'u' }).describe('ai-messages')).toThrow(expect.objectContaining({ code: 'NOT_FOUND' }));
    expect(store.asCaller({ userId: 'u' }).describe('notes').columns).toHaveLength(4);
  });

  it('definitions handed out are frozen', () => {
    const { store } = setup();
    expect(Object.isFrozen(store.collection('notes').columns)).toBe(true);
  });
});
