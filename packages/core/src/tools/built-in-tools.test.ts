import { describe, expect, it } from 'vitest';
import type { Caller } from '@chatwire/storage';
import { ChatwireError } from '@chatwire/storage';
import type { ToolSet } from 'ai';
import { createToolCatalog } from './create-tool-catalog.js';
import type { ToolCatalogOptions } from './tool-catalog-options.js';
import { ALICE, seededStore } from './tool-test-kit.js';

/** Calls a tool's execute directly (input validation is the AI SDK's job, covered by the stream tests). */
async function call(tools: ToolSet, wireName: string, input: unknown): Promise<any> {
  const execute = tools[wireName]?.execute;
  if (execute === undefined) throw new Error(`no tool ${wireName}`);
  return execute(input, { toolCallId: 'direct', messages: [] });
}

async function setup(caller: Caller = ALICE, options: Omit<ToolCatalogOptions, 'store'> = {}, signal = new AbortController().signal) {
  const store = await seededStore();
  const tools = createToolCatalog({ ...options, store }).forTurn({ caller, records: store.asCaller(caller), abortSignal: signal });
  return { store, tools };
}

describe('schema tools', () => {
  it('schema.list shows only collections the caller can use, never hidden or ai-* ones', async () => {
    const { store, tools } = await setup();
    store.register({ name: 'ai-extra', columns: [{ name: 'x', type: 'string' }], rules: { read: true, create: true, update: true, delete: true } });
    expect(await call(tools, 'schema_list', {})).toEqual({
      collections: [{ name: 'notes', description: 'Personal notes' }, { name: 'tasks' }, { name: 'announcements' }],
    });
    const admin = await setup({ userId: 'root', role: 'admin' });
    expect((await call(admin.tools, 'schema_list', {})).collections.map((c: { name: string }) => c.name)).toContain('admin-notes');
  });

  it('schema.describe gives columns, owner field, rules and the caller access', async () => {
    const { tools } = await setup();
    expect(await call(tools, 'schema_describe', { collection: 'notes' })).toEqual({
      name: 'notes',
      description: 'Personal notes',
      ownerField: 'userId',
      columns: [
        { name: 'userId', type: 'string', required: true },
        { name: 'title', type: 'string', required: true, description: 'Short title' },
        { name: 'body', type: 'string', required: false },
      ],
      rules: { read: 'own', create: 'own', update: 'own', delete: 'own' },
      yourAccess: { read: 'own', create: 'own', update: 'own', delete: 'own' },
    });
    expect((await call(tools, 'schema_describe', { collection: 'announcements' })).yourAccess).toEqual({
      read: 'all', create: 'none', update: 'none', delete: 'none',
    });
  });
});

describe('record tools', () => {
  it('records.query pages with the default limit, sorts, projects fields and accepts the caller as owner filter', async () => {
    const { tools, store } = await setup(ALICE, { defaultQueryLimit: 2 });
    const records = store.asCaller(ALICE);
    for (const title of ['b', 'c', 'd']) await records.create('notes', { title });
    const first = await call(tools, 'records_query', { collection: 'notes', orderBy: { field: 'title', direction: 'desc' }, fields: ['title'] });
    expect(first.records.map((r: { data: unknown }) => r.data)).toEqual([{ title: 'd' }, { title: 'c' }]);
    const second = await call(tools, 'records_query', {
      collection: 'notes', orderBy: { field: 'title', direction: 'desc' }, fields: ['title'], cursor: first.nextCursor,
    });
    expect(second.records.map((r: { data: { title: string } }) => r.data.title)).toEqual(['b', 'alice note']);
    const mine = await call(tools, 'records_query', { collection: 'notes', filter: { userId: 'alice', title: { in: ['b', 'c'] } } });
    expect(mine.records).toHaveLength(2);
    await expect(call(tools, 'records_query', { collection: 'notes', fields: ['nope'] })).rejects.toThrow(
      "records.query: 'notes' has no field 'nope'",
    );
  });

  it('records.get, update and delete act on the caller rows', async () => {
    const { tools, store } = await setup();
    expect(await call(tools, 'records_get', { collection: 'notes', recordId: 'alice-note', fields: ['title'] })).toMatchObject({
      recordId: 'alice-note', data: { title: 'alice note' },
    });
    const updated = await call(tools, 'records_update', { collection: 'notes', recordId: 'alice-note', patch: { body: 'new' } });
    expect(updated.data).toEqual({ userId: 'alice', title: 'alice note', body: 'new' });
    expect(await call(tools, 'records_delete', { collection: 'notes', recordId: 'alice-note' })).toEqual({
      deleted: true, collection: 'notes', recordId: 'alice-note',
    });
    expect(await store.asServer().find('notes', 'alice-note')).toBeNull();
    const error = await call(tools, 'records_get', { collection: 'notes', recordId: 'alice-note' }).catch((e: unknown) => e);
    expect(ChatwireError.is(error, 'NOT_FOUND')).toBe(true);
  });

  it('records.create accepts the caller as owner and fills a custom owner field', async () => {
    const { tools } = await setup();
    expect((await call(tools, 'records_create', { collection: 'notes', data: { title: 't', userId: 'alice' } })).data.userId).toBe('alice');
    expect((await call(tools, 'records_create', { collection: 'tasks', data: { title: 't' } })).data).toEqual({ title: 't', ownerId: 'alice' });
  });

  it('does nothing once the turn is aborted', async () => {
    const abort = new AbortController();
    const { tools, store } = await setup(ALICE, {}, abort.signal);
    abort.abort();
    await expect(call(tools, 'records_create', { collection: 'notes', data: { title: 'late' } })).rejects.toThrow();
    expect((await store.asServer().query('notes', { filter: { title: 'late' } })).records).toEqual([]);
  });
});

describe('user.current', () => {
  it('returns the caller row of the users collection, read with server rights, without sensitive fields', async () => {
    const { tools } = await setup(ALICE, { usersCollection: 'users' });
    const output = await call(tools, 'user_current', {});
    expect(output).toMatchObject({ userId: 'alice', role: 'user', source: 'record', record: { recordId: 'alice' } });
    expect(output.record.data).toEqual({ name: 'alice', email: 'alice@example.com' });
  });

  it('falls back to the token claims minus sensitive ones when there is no row', async () => {
    const caller: Caller = {
      userId: 'carol',
      claims: { sub: 'carol', email: 'c@example.com', iat: 1, jti: 'id-1', nonce: 'n', access_token: 't', sid: 's', apiKey: 'k' },
    };
    const { tools } = await setup(caller, { usersCollection: 'users' });
    expect(await call(tools, 'user_current', {})).toEqual({
      userId: 'carol', role: null, source: 'claims', claims: { sub: 'carol', email: 'c@example.com', iat: 1 },
    });
  });

  it('uses the claims when no users collection is configured', async () => {
    const { tools } = await setup();
    expect(await call(tools, 'user_current', {})).toEqual({
      userId: 'alice', role: 'user', source: 'claims', claims: { sub: 'alice', email: 'alice@example.com' },
    });
  });
});
