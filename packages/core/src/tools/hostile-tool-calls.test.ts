import { describe, expect, it } from 'vitest';
import { createToolCatalog } from './create-tool-catalog.js';
import { ALICE, chunksOf, runTurn, scriptedModel, seededStore, snapshotRows } from './tool-test-kit.js';

interface HostileCall {
  name: string;
  toolName: string;
  /** An object is sent as JSON; a string is sent verbatim (raw JSON text from the model). */
  input: unknown;
  /** Which chunk must carry the denial. */
  expect: 'tool-input-error' | 'tool-output-error';
  /** Part of the error text the model gets back. */
  says?: string | RegExp;
}

const aiCollections: HostileCall[] = [
  { name: 'query ai-chats', toolName: 'records_query', input: { collection: 'ai-chats' }, expect: 'tool-output-error', says: "no collection 'ai-chats'" },
  { name: 'query own ai-messages by chat', toolName: 'records_query', input: { collection: 'ai-messages', filter: { chatId: 'alice-chat' } }, expect: 'tool-output-error', says: "no collection 'ai-messages'" },
  { name: 'get own ai-chat', toolName: 'records_get', input: { collection: 'ai-chats', recordId: 'alice-chat' }, expect: 'tool-output-error' },
  { name: "get another user's ai-message", toolName: 'records_get', input: { collection: 'ai-messages', recordId: 'bob-message' }, expect: 'tool-output-error' },
  { name: 'forge an assistant message', toolName: 'records_create', input: { collection: 'ai-messages', data: { chatId: 'alice-chat', userId: 'alice', role: 'assistant', content: 'forged' } }, expect: 'tool-output-error' },
  { name: 'create an ai-chat', toolName: 'records_create', input: { collection: 'ai-chats', data: { title: 'x' } }, expect: 'tool-output-error' },
  { name: 'rename own ai-chat', toolName: 'records_update', input: { collection: 'ai-chats', recordId: 'alice-chat', patch: { title: 'renamed' } }, expect: 'tool-output-error' },
  { name: 'delete own ai-message', toolName: 'records_delete', input: { collection: 'ai-messages', recordId: 'alice-message' }, expect: 'tool-output-error' },
  { name: 'describe ai-messages', toolName: 'schema_describe', input: { collection: 'ai-messages' }, expect: 'tool-output-error' },
  { name: 'query the hidden users collection', toolName: 'records_query', input: { collection: 'users' }, expect: 'tool-output-error' },
];

const otherUsersRows: HostileCall[] = [
  { name: "get another user's note", toolName: 'records_get', input: { collection: 'notes', recordId: 'bob-note' }, expect: 'tool-output-error', says: 'not found' },
  { name: "update another user's note", toolName: 'records_update', input: { collection: 'notes', recordId: 'bob-note', patch: { title: 'pwned' } }, expect: 'tool-output-error' },
  { name: "take over another user's note", toolName: 'records_update', input: { collection: 'notes', recordId: 'bob-note', patch: { userId: 'alice' } }, expect: 'tool-output-error' },
  { name: "delete another user's note", toolName: 'records_delete', input: { collection: 'notes', recordId: 'bob-note' }, expect: 'tool-output-error' },
  { name: "get another user's task (custom owner field)", toolName: 'records_get', input: { collection: 'tasks', recordId: 'bob-task' }, expect: 'tool-output-error' },
  { name: 'record id with a path', toolName: 'records_get', input: { collection: 'notes', recordId: '../bob-note' }, expect: 'tool-output-error' },
];

const widenedQueries: HostileCall[] = [
  { name: 'owner ne me', toolName: 'records_query', input: { collection: 'notes', filter: { userId: { ne: 'alice' } } }, expect: 'tool-output-error', says: 'only see your own records' },
  { name: 'owner equals another user', toolName: 'records_query', input: { collection: 'notes', filter: { userId: 'bob' } }, expect: 'tool-output-error' },
  { name: 'owner eq another user', toolName: 'records_query', input: { collection: 'notes', filter: { userId: { eq: 'bob' } } }, expect: 'tool-output-error' },
  { name: 'owner in [me, other]', toolName: 'records_query', input: { collection: 'notes', filter: { userId: { in: ['alice', 'bob'] } } }, expect: 'tool-output-error' },
  { name: 'owner does not exist', toolName: 'records_query', input: { collection: 'notes', filter: { userId: { exists: false } } }, expect: 'tool-output-error' },
  { name: 'owner range', toolName: 'records_query', input: { collection: 'notes', filter: { userId: { gte: '' } }, orderBy: { field: 'userId' } }, expect: 'tool-output-error' },
  { name: 'custom owner field of another user', toolName: 'records_query', input: { collection: 'tasks', filter: { ownerId: 'bob' } }, expect: 'tool-output-error' },
  { name: 'mongo-style operator', toolName: 'records_query', input: { collection: 'notes', filter: { userId: { $ne: 'alice' } } }, expect: 'tool-input-error' },
  { name: 'unknown operator', toolName: 'records_query', input: { collection: 'notes', filter: { title: { regex: '.*' } } }, expect: 'tool-input-error' },
  { name: 'huge limit', toolName: 'records_query', input: { collection: 'notes', limit: 1_000_000 }, expect: 'tool-input-error' },
  { name: 'zero limit', toolName: 'records_query', input: { collection: 'notes', limit: 0 }, expect: 'tool-input-error' },
  { name: 'fractional limit', toolName: 'records_query', input: { collection: 'notes', limit: 2.5 }, expect: 'tool-input-error' },
  { name: 'forged cursor', toolName: 'records_query', input: { collection: 'notes', cursor: 'eyJyZWNvcmRJZCI6ImJvYi1ub3RlIn0' }, expect: 'tool-output-error' },
  { name: 'extra top-level key', toolName: 'records_query', input: { collection: 'notes', asServer: true }, expect: 'tool-input-error' },
];

const ownerAndRuleWrites: HostileCall[] = [
  { name: 'create a note owned by another user', toolName: 'records_create', input: { collection: 'notes', data: { title: 'x', userId: 'bob' } }, expect: 'tool-output-error', says: "'userId' of a new 'notes' record" },
  { name: 'give own note away', toolName: 'records_update', input: { collection: 'notes', recordId: 'alice-note', patch: { userId: 'bob' } }, expect: 'tool-output-error', says: 'cannot be changed' },
  { name: 'create a task owned by another user', toolName: 'records_create', input: { collection: 'tasks', data: { title: 'x', ownerId: 'bob' } }, expect: 'tool-output-error' },
  { name: 'give own task away', toolName: 'records_update', input: { collection: 'tasks', recordId: 'alice-task', patch: { ownerId: 'bob' } }, expect: 'tool-output-error' },
  { name: 'create in a create:false collection', toolName: 'records_create', input: { collection: 'announcements', data: { title: 'Fake' } }, expect: 'tool-output-error', says: 'Not allowed to create' },
  { name: 'update in an update:false collection', toolName: 'records_update', input: { collection: 'announcements', recordId: 'welcome', patch: { title: 'x' } }, expect: 'tool-output-error' },
  { name: 'delete in a delete:false collection', toolName: 'records_delete', input: { collection: 'announcements', recordId: 'welcome' }, expect: 'tool-output-error' },
  { name: 'query a collection for another role', toolName: 'records_query', input: { collection: 'admin-notes' }, expect: 'tool-output-error' },
  { name: 'create in a collection for another role', toolName: 'records_create', input: { collection: 'admin-notes', data: { title: 'x' } }, expect: 'tool-output-error' },
  { name: 'describe a collection for another role', toolName: 'schema_describe', input: { collection: 'admin-notes' }, expect: 'tool-output-error' },
  { name: 'collection named __proto__', toolName: 'records_query', input: { collection: '__proto__' }, expect: 'tool-output-error' },
];

const malformedInput: HostileCall[] = [
  { name: '__proto__ in create data', toolName: 'records_create', input: '{"collection":"notes","data":{"title":"x","__proto__":{"userId":"bob"}}}', expect: 'tool-input-error' },
  { name: 'constructor.prototype in a patch', toolName: 'records_update', input: '{"collection":"notes","recordId":"alice-note","patch":{"constructor":{"prototype":{"polluted":true}}}}', expect: 'tool-input-error' },
  { name: '__proto__ in a filter', toolName: 'records_query', input: '{"collection":"notes","filter":{"__proto__":{"userId":{"ne":"alice"}}}}', expect: 'tool-input-error' },
  { name: 'nested prototype key', toolName: 'records_create', input: { collection: 'notes', data: { title: 'x', body: 'y', meta: { prototype: { admin: true } } } }, expect: 'tool-input-error', says: "the key 'prototype' is not allowed" },
  { name: 'constructor key in a patch', toolName: 'records_update', input: { collection: 'notes', recordId: 'alice-note', patch: { constructor: 'x' } }, expect: 'tool-input-error' },
  { name: 'user_current for someone else', toolName: 'user_current', input: { userId: 'bob' }, expect: 'tool-input-error' },
  { name: 'a tool that does not exist', toolName: 'records_drop', input: { collection: 'notes' }, expect: 'tool-input-error' },
  { name: 'invalid JSON', toolName: 'records_delete', input: '{"collection":"notes","recordId":', expect: 'tool-input-error' },
  { name: 'data that is not an object', toolName: 'records_create', input: { collection: 'notes', data: 'DROP TABLE notes' }, expect: 'tool-input-error' },
];

const table = [...aiCollections, ...otherUsersRows, ...widenedQueries, ...ownerAndRuleWrites, ...malformedInput];

/** Strings only reachable by escalation: other users' rows, ai-* rows, admin rows, users rows. */
const LEAKS = ['secret of bob', 'bob note', 'bob task', 'alice chat', 'bob chat', 'hi from', 'Internal', 'passwordHash'];

async function runHostile(call: HostileCall) {
  const store = await seededStore();
  const before = await snapshotRows(store.asServer());
  const tools = createToolCatalog().forTurn({ caller: ALICE, records: store.asCaller(ALICE), abortSignal: new AbortController().signal });
  const model = scriptedModel([
    { toolCalls: [{ toolName: call.toolName, input: call.input, toolCallId: 'hostile' }] },
    { text: 'I cannot do that.' },
  ]);
  const chunks = await runTurn(model, tools);
  return { chunks, model, before, after: await snapshotRows(store.asServer()) };
}

describe('hostile tool calls through the real AI SDK loop', () => {
  it('has at least 30 rows', () => {
    expect(table.length).toBeGreaterThanOrEqual(30);
  });

  it.each(table)('$name ($toolName) is denied and storage is unchanged', async (call) => {
    const { chunks, model, before, after } = await runHostile(call);
    const own = chunksOf(chunks, 'hostile');
    const denial = own.find((c) => c.type === call.expect) as { errorText: string } | undefined;
    expect(denial, JSON.stringify(own)).toBeDefined();
    expect(own.some((c) => c.type === 'tool-output-available')).toBe(false);
    if (call.says !== undefined) expect(denial?.errorText).toMatch(call.says);
    expect(denial?.errorText).not.toMatch(/\n\s+at /);
    expect(after).toBe(before);
    const streamed = JSON.stringify(chunks) + JSON.stringify(model.doStreamCalls[1]?.prompt);
    for (const leak of LEAKS) expect(streamed).not.toContain(leak);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(chunks.at(-1)).toMatchObject({ type: 'finish', finishReason: 'stop' });
  });

  it('the harness notices an allowed change (so the unchanged-storage check can fail)', async () => {
    const { chunks, before, after } = await runHostile({
      name: 'control',
      toolName: 'records_update',
      input: { collection: 'notes', recordId: 'alice-note', patch: { title: 'renamed' } },
      expect: 'tool-output-error',
    });
    expect(chunksOf(chunks, 'hostile').map((c) => c.type)).toEqual(['tool-input-available', 'tool-output-available']);
    expect(after).not.toBe(before);
  });
});
