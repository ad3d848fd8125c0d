import { userMessageRecordId } from '@chatwire/core';
import { createPostgresDriver } from '@chatwire/postgres';
import type { StoreDriver } from '@chatwire/storage';
import { createMemoryDriver } from '@chatwire/storage/memory';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { chatFixture, readSse, type ChatFixture } from './test-support/chat-fixture.js';
import { scriptedModel, textStep } from './test-support/scripted-model.js';

// DESIGN.md "Faults and limits": message ids are scoped to their owner; another user's id behaves exactly like
// a fresh one. Through the real handler, on the memory store and (with CHATWIRE_TEST_DATABASE_URL) PostgreSQL.

const url = process.env.CHATWIRE_TEST_DATABASE_URL;
const schema = `cw_msgids_${process.pid}_${Date.now().toString(36)}`;

interface WireMessage {
  recordId: string;
  data: { chatId: string; userId: string; role: string; content: string };
}

async function history(f: ChatFixture, user: string, chatId: string): Promise<WireMessage[]> {
  const res = await f.request('GET', `/chats/${chatId}`, { user });
  expect(res.status).toBe(200);
  return ((await res.json()) as { messages: WireMessage[] }).messages;
}

/** A submit that must stream a whole, normal turn; returns its X-Asst-Id. */
async function turn(f: ChatFixture, user: string, chatId: string, userMessageId: string, content: string): Promise<string> {
  const res = await f.request('POST', '/chat', { user, body: { chatId, userMessageId, content } });
  expect(res.status).toBe(200);
  const asstId = res.headers.get('x-asst-id')!;
  const { chunks, done } = await readSse(res);
  expect(chunks[0]).toEqual({ type: 'start', messageId: asstId });
  expect(chunks.at(-1)).toEqual({ type: 'finish', finishReason: 'stop' });
  expect(done).toBe(true);
  return asstId;
}

async function errorOf(res: Response): Promise<{ status: number; code: string; message: string }> {
  const body = (await res.json()) as { error: { code: string; message: string } };
  return { status: res.status, code: body.error.code, message: body.error.message };
}

function messageIdSuite(name: string, driver: () => StoreDriver): void {
  describe(`message ids scoped to their owner (${name})`, () => {
    it('user B reusing user A’s stored id gets a normal turn; each history lists the id its user sent; A’s retry is still 409', async () => {
      const f = chatFixture(scriptedModel([textStep('An answer.')]).model, { driver: driver() });
      const alices = await f.createChat('alice');
      const bobs = await f.createChat('bob');
      const aliceAsst = await turn(f, 'alice', alices, 'shared-id', 'from alice');
      const bobAsst = await turn(f, 'bob', bobs, 'shared-id', 'from bob');

      expect((await history(f, 'alice', alices)).map((m) => [m.recordId, m.data.role, m.data.content, m.data.userId])).toEqual([
        ['shared-id', 'user', 'from alice', 'alice'],
        [aliceAsst, 'assistant', 'An answer.', 'alice'],
      ]);
      expect((await history(f, 'bob', bobs)).map((m) => [m.recordId, m.data.role, m.data.content, m.data.userId])).toEqual([
        ['shared-id', 'user', 'from bob', 'bob'],
        [bobAsst, 'assistant', 'An answer.', 'bob'],
      ]);
      // The wire message carries exactly the fields it always had.
      expect(Object.keys((await history(f, 'bob', bobs))[0]!.data).sort()).toEqual(['chatId', 'content', 'parts', 'role', 'userId']);
      // Two rows: the first under the client's id (DESIGN's contract), the second, whose id was taken, under its owner's scoped one.
      const users = (await f.rows('ai-messages')).filter((m) => m.data.role === 'user');
      expect(users.map((m) => [m.data.userId, m.recordId, m.data.messageId]).sort()).toEqual([
        ['alice', 'shared-id', 'shared-id'],
        ['bob', userMessageRecordId('bob', 'shared-id'), 'shared-id'],
      ]);
      const turnRows = await f.rows('ai-turns');
      expect(turnRows.map((t) => [t.data.userId, t.data.userMessageId]).sort()).toEqual([
        ['alice', 'shared-id'],
        ['bob', 'shared-id'],
      ]);

      // The owner's retry, in the same chat or another of theirs, is refused before any model call.
      const otherOfAlice = await f.createChat('alice');
      for (const [user, chatId] of [['alice', alices], ['alice', otherOfAlice], ['bob', bobs]] as const) {
        const retry = await f.request('POST', '/chat', { user, body: { chatId, userMessageId: 'shared-id', content: 'again' } });
        expect(await errorOf(retry)).toEqual({ status: 409, code: 'DUPLICATE_MESSAGE', message: "Message 'shared-id' is already stored" });
      }
      expect(await history(f, 'alice', otherOfAlice)).toEqual([]);
    });

    it('an id only another user has is answered exactly like a fresh one: submit 200, edit/regenerate 404 MESSAGE_NOT_FOUND', async () => {
      const f = chatFixture(scriptedModel([textStep('An answer.')]).model, { driver: driver() });
      const alices = await f.createChat('alice');
      const aliceAsst = await turn(f, 'alice', alices, 'alice-only', 'from alice');
      const bobs = await f.createChat('bob');
      await turn(f, 'bob', bobs, 'bob-1', 'from bob');
      const aliceBefore = await history(f, 'alice', alices);

      // Edit or regenerate of alice's ids (her user message, her assistant message) in bob's chat: as for an
      // id nobody has, same status, same code, same message but for the id.
      for (const [id, body] of [
        ['alice-only', { trigger: 'edit', content: 'hijack' }],
        ['alice-only', { trigger: 'regenerate' }],
        [aliceAsst, { trigger: 'edit', content: 'hijack' }],
      ] as const) {
        const foreign = await errorOf(await f.request('POST', '/chat', { user: 'bob', body: { chatId: bobs, userMessageId: id, ...body } }));
        const fresh = await errorOf(await f.request('POST', '/chat', { user: 'bob', body: { chatId: bobs, userMessageId: 'never-sent', ...body } }));
        expect(foreign).toEqual({ ...fresh, message: fresh.message.replace('never-sent', id) });
        expect(foreign).toMatchObject({ status: 404, code: 'MESSAGE_NOT_FOUND' });
      }
      expect(await history(f, 'alice', alices)).toEqual(aliceBefore);

      // Submitting alice's ids in bob's chat: a fresh id for bob.
      await turn(f, 'bob', bobs, 'alice-only', 'bob too');
      await turn(f, 'bob', bobs, aliceAsst, 'and this');
      expect((await history(f, 'bob', bobs)).filter((m) => m.data.role === 'user').map((m) => m.recordId)).toEqual(['bob-1', 'alice-only', aliceAsst]);
      expect(await history(f, 'alice', alices)).toEqual(aliceBefore);
    });

    it('edit and regenerate by each user of the shared id change that user’s chat only; deleting a chat leaves the other user’s message', async () => {
      const scripted = scriptedModel([textStep('A'), textStep('B'), textStep('B edited'), textStep('A again')]);
      const f = chatFixture(scripted.model, { driver: driver() });
      const alices = await f.createChat('alice');
      const bobs = await f.createChat('bob');
      await turn(f, 'alice', alices, 'same', 'alice text');
      await turn(f, 'bob', bobs, 'same', 'bob text');
      const aliceBefore = await history(f, 'alice', alices);

      const edit = await f.request('POST', '/chat', { user: 'bob', body: { chatId: bobs, trigger: 'edit', userMessageId: 'same', content: 'bob edited' } });
      expect(edit.status).toBe(200);
      await readSse(edit);
      expect((await history(f, 'bob', bobs)).map((m) => [m.recordId, m.data.content])).toEqual([
        ['same', 'bob edited'],
        [edit.headers.get('x-asst-id'), 'B edited'],
      ]);
      expect(await history(f, 'alice', alices)).toEqual(aliceBefore);

      const regenerate = await f.request('POST', '/chat', { user: 'alice', body: { chatId: alices, trigger: 'regenerate' } });
      expect(regenerate.status).toBe(200);
      await readSse(regenerate);
      expect((await history(f, 'alice', alices)).map((m) => [m.recordId, m.data.content])).toEqual([
        ['same', 'alice text'],
        [regenerate.headers.get('x-asst-id'), 'A again'],
      ]);

      expect((await f.request('DELETE', `/chats/${bobs}`, { user: 'bob' })).status).toBe(200);
      expect((await history(f, 'alice', alices)).map((m) => m.recordId)[0]).toBe('same');
      // Bob's id is free again for bob.
      const again = await f.createChat('bob');
      await turn(f, 'bob', again, 'same', 'bob again');
    });
  });
}

messageIdSuite('memory store', () => createMemoryDriver());

describe.skipIf(!url)(`on a real PostgreSQL${url ? '' : ' (skipped: CHATWIRE_TEST_DATABASE_URL not set)'}`, () => {
  const pool = url ? new pg.Pool({ connectionString: url, max: 4 }) : null;
  afterAll(async () => {
    await pool?.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await pool?.end();
  });
  messageIdSuite('PostgreSQL', () => createPostgresDriver({ pool: pool!, schema }));
});
