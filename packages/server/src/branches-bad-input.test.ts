import { createModelRegistry } from '@chatwire/core';
import { createRecordStore } from '@chatwire/storage';
import { afterAll, describe, expect, it } from 'vitest';
import { createChatHandler } from './create-chat-handler.js';
import { BASE, chatFixture, readSse, SECRET, signToken, type ChatFixture } from './test-support/chat-fixture.js';
import { scriptedModel, textStep } from './test-support/scripted-model.js';
import { storeBackends } from './test-support/store-backends.js';

async function answered(f: ChatFixture, body: Record<string, unknown>, user = 'alice'): Promise<string> {
  const res = await f.request('POST', '/chat', { body, user });
  expect(res.status).toBe(200);
  await readSse(res);
  return res.headers.get('x-asst-id')!;
}

const errorOf = async (res: Response) => [res.status, ((await res.json()) as { error: { code: string } }).error.code];

for (const backend of storeBackends('branches_bad')) {
  describe.skipIf(backend.skipReason)(`branch switching, bad input and races on ${backend.name} ${backend.skipReason}`, () => {
    afterAll(() => backend.close());

    it('404 for another chat’s or user’s message, 409 while a turn streams, 400 without messageId, edit of an answer 404', async () => {
      const scripted = scriptedModel([textStep('Hello there friend')]);
      const f = chatFixture(scripted.model, { driver: backend.driver(), handler: { history: 'tree' } });
      const chatId = await f.createChat('alice');
      const other = await f.createChat('alice');
      const bobs = await f.createChat('bob');
      const a1 = await answered(f, { chatId, userMessageId: 'u1', content: 'hi' });
      await answered(f, { chatId: other, userMessageId: 'o1', content: 'other' });
      await answered(f, { chatId: bobs, userMessageId: 'b1', content: 'bob' }, 'bob');

      const post = (id: string, body: unknown, user = 'alice') => f.request('POST', `/chats/${id}/active`, { body, user });
      expect(await errorOf(await post(chatId, { messageId: 'o1' }))).toEqual([404, 'MESSAGE_NOT_FOUND']);
      expect(await errorOf(await post(chatId, { messageId: 'b1' }))).toEqual([404, 'MESSAGE_NOT_FOUND']);
      expect(await errorOf(await post(bobs, { messageId: 'b1' }))).toEqual([404, 'NOT_FOUND']);
      expect(await errorOf(await post(chatId, { messageId: 'u1' }, 'bob'))).toEqual([404, 'NOT_FOUND']);
      expect(await errorOf(await post(chatId, {}))).toEqual([400, 'VALIDATION']);
      expect(await errorOf(await post(chatId, { messageId: 7 }))).toEqual([400, 'VALIDATION']);
      expect((await f.request('POST', `/chats/${chatId}/active`, { raw: '{' })).status).toBe(400);
      expect((await f.request('POST', `/chats/${chatId}/active`, { user: null, body: { messageId: 'u1' } })).status).toBe(401);

      const edit = await f.request('POST', '/chat', { body: { chatId, trigger: 'edit', userMessageId: a1, content: 'x' } });
      expect(await errorOf(edit)).toEqual([404, 'MESSAGE_NOT_FOUND']);

      scripted.pauseAt(scripted.calls.length * 6 + 2);
      const running = await f.request('POST', '/chat', { body: { chatId, trigger: 'regenerate' } });
      const body = readSse(running);
      expect(await errorOf(await post(chatId, { messageId: 'u1' }))).toEqual([409, 'CHAT_BUSY']);
      scripted.release();
      await body;
      expect((await post(chatId, { messageId: a1 })).status).toBe(200);
      expect(f.errors).toEqual([]);
    });

    it('linear history has no branch route: 404, and GET has no branch field', async () => {
      const f = chatFixture(scriptedModel([textStep('ok')]).model, { driver: backend.driver() });
      const chatId = await f.createChat('alice');
      await answered(f, { chatId, userMessageId: 'u1', content: 'hi' });
      expect(await errorOf(await f.request('POST', `/chats/${chatId}/active`, { body: { messageId: 'u1' } }))).toEqual([404, 'NOT_FOUND']);
      const read = (await (await f.request('GET', `/chats/${chatId}`)).json()) as { messages: object[] };
      expect(read.messages[0]).not.toHaveProperty('branch');
    });

    it('two handlers on one store (two tabs, two servers): switches and submits race, each answers 200 or 409, the tree stays whole', async () => {
      const driver = backend.driver();
      const store = createRecordStore({ driver });
      const handlers = [0, 1].map(() =>
        createChatHandler({ store, models: createModelRegistry({ fallbackModel: scriptedModel([textStep('answer')]).model }), auth: { secret: SECRET }, summarizerModelId: false, history: 'tree' }),
      );
      const token = `Bearer ${await signToken('alice')}`;
      const call = (h: number, method: string, path: string, body?: unknown) =>
        handlers[h]!(new Request(`${BASE}${path}`, { method, headers: { authorization: token, 'content-type': 'application/json' }, ...(body ? { body: JSON.stringify(body) } : {}) }));
      const chatId = ((await (await call(0, 'POST', '/chats', {})).json()) as { chat: { recordId: string } }).chat.recordId;
      await (await call(0, 'POST', '/chat', { chatId, userMessageId: 'q0', content: 'first' })).text();
      const statuses: number[] = [];
      for (let round = 1; round <= 6; round++) {
        const [switched, submitted] = await Promise.all([
          call(1, 'POST', `/chats/${chatId}/active`, { messageId: 'q0' }),
          call(0, 'POST', '/chat', { chatId, userMessageId: `q${round}`, content: `round ${round}` }),
        ]);
        statuses.push(switched.status, submitted.status);
        for (const res of [switched, submitted]) {
          const text = await res.text();
          if (res.status === 409) expect((JSON.parse(text) as { error: { code: string } }).error.code).toBe('CHAT_BUSY');
        }
      }
      expect(statuses.every((s) => s === 200 || s === 409)).toBe(true);
      // Every stored user message answers an assistant message of the chat (or is the first); the read path is one chain to the active leaf.
      const rows = (await store.asServer().query('ai-messages', { filter: { chatId }, limit: 200 })).records;
      const byId = new Map(rows.map((r) => [r.recordId, r]));
      for (const row of rows.filter((r) => r.data.role === 'user' && r.data.parentId !== null)) expect(byId.get(row.data.parentId as string)?.data.role).toBe('assistant');
      const read = (await (await call(1, 'GET', `/chats/${chatId}`)).json()) as { messages: Array<{ recordId: string; branch: { parentId: string | null } }> };
      read.messages.forEach((m, i) => expect(m.branch.parentId).toBe(i === 0 ? null : read.messages[i - 1]!.recordId));
      const chat = await store.asServer().find('ai-chats', chatId);
      expect(read.messages.at(-1)!.recordId).toBe(chat!.data.activeLeafId);
      await Promise.all(handlers.map((h) => h.close()));
    });
  });
}
