import { AI_MESSAGES, createModelRegistry } from '@chatwire/core';
import { createChatHandler } from '@chatwire/server';
import { createRecordStore, type StoreDriver } from '@chatwire/storage';
import { createMemoryDriver } from '@chatwire/storage/memory';
import { MockLanguageModelV2 } from 'ai/test';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { createChatClient } from './index.js';

/** `client.search` against the real handler in-process. */
const SECRET = 'client-search-secret-that-is-32-bytes-long';

function setup(driver: StoreDriver = createMemoryDriver()) {
  const store = createRecordStore({ driver });
  const handler = createChatHandler({ store, models: createModelRegistry({ env: {}, fallbackModel: new MockLanguageModelV2() }), auth: { secret: SECRET }, summarizerModelId: false });
  const token = (sub: string) =>
    new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject(sub).setExpirationTime('1h').sign(new TextEncoder().encode(SECRET));
  const client = (sub: string) =>
    createChatClient({ baseUrl: 'http://localhost/api/ai', getToken: () => token(sub), fetch: (input, init) => handler(new Request(input, init)) });
  return { store, client };
}

describe('client.search', () => {
  it('sends q, limit, cursor and chatId and returns the typed page', async () => {
    const { store, client } = setup();
    const alice = client('alice');
    const trip = await alice.createChat({ title: 'Trip to Zürich' });
    const other = await alice.createChat({ title: 'Groceries' });
    for (const content of ['Zurich by train?', 'Lake Zurich swim', 'Zurich & Bern']) {
      await store.asServer().create(AI_MESSAGES, { chatId: trip.recordId, userId: 'alice', role: 'user', content, messageId: content.slice(0, 4) });
    }
    await store.asServer().create(AI_MESSAGES, { chatId: other.recordId, userId: 'alice', role: 'assistant', content: 'Milk, not Zurich' });
    const first = await alice.search('zurich', { limit: 3 });
    expect(first.results.map((r) => r.snippet)).toEqual(['Milk, not Zurich', 'Zurich & Bern', 'Lake Zurich swim']);
    expect(first.results[2]).toMatchObject({ chatId: trip.recordId, chatTitle: 'Trip to Zürich', messageId: 'Lake', role: 'user', highlights: [{ start: 5, end: 11 }] });
    const rest = await alice.search('zurich', { limit: 3, cursor: first.nextCursor });
    expect(rest.results.map((r) => [r.messageId, r.role])).toEqual([
      ['Zuri', 'user'],
      [null, null],
    ]);
    expect(rest.nextCursor).toBeNull();
    expect((await alice.search('zurich', { chatId: other.recordId })).results).toHaveLength(1);
    expect((await client('bob').search('zurich')).results).toEqual([]);
  });

  it('rejects with the typed errors: 400 VALIDATION, 404, and 501 from a store without full-text search', async () => {
    const { client } = setup();
    await expect(client('alice').search('  ')).rejects.toMatchObject({ code: 'VALIDATION', status: 400 });
    await expect(client('alice').search('x', { chatId: 'nope' })).rejects.toMatchObject({ code: 'NOT_FOUND', status: 404 });
    const plain = createMemoryDriver();
    const without = setup({ ...plain, capabilities: { sharedLeases: false, notifications: true } });
    await expect(without.client('alice').search('x')).rejects.toMatchObject({ code: 'NOT_IMPLEMENTED', status: 501 });
  });
});
