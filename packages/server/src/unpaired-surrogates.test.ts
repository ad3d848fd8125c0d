import { afterAll, describe, expect, it } from 'vitest';
import { chatFixture, readSse } from './test-support/chat-fixture.js';
import { scriptedModel, textStep } from './test-support/scripted-model.js';
import { storeBackends } from './test-support/store-backends.js';

/**
 * JSON carries a lone UTF-16 surrogate (`"\ud800"`), PostgreSQL cannot store one. Such text once reached the
 * model on PostgreSQL (a paid call) and failed only at the save, with "send your message again", which failed
 * the same way; the memory driver kept it. Now it is a 400 naming the field, before anything runs, on both.
 */
const backends = storeBackends('cw_surrogates');
afterAll(async () => {
  for (const backend of backends) await backend.close();
});

const LONE = 'hi \ud800 there';

for (const backend of backends) {
  describe.skipIf(backend.skipReason)(`request text with an unpaired surrogate on ${backend.name} ${backend.skipReason}`, () => {
    const setup = async () => {
      const scripted = scriptedModel([textStep('An answer.'), textStep('Another.')]);
      const f = chatFixture(scripted.model, { driver: backend.driver(), handler: { createChatOnFirstTurn: true } });
      return { f, scripted, chatId: await f.createChat('alice') };
    };
    const expectRefused = async (res: Response, field: string) => {
      expect(res.status).toBe(400);
      const body = (await res.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe('VALIDATION');
      expect(body.error.message).toContain(`'${field}'`);
      expect(body.error.message).toContain('unpaired UTF-16 surrogate');
    };

    it('POST /chat (submit, and a first turn that would create the chat): 400 naming content, no model call, nothing stored', async () => {
      const { f, scripted, chatId } = await setup();
      await expectRefused(await f.request('POST', '/chat', { body: { chatId, userMessageId: 'u1', content: LONE } }), 'content');
      await expectRefused(await f.request('POST', '/chat', { body: { chatId: 'new-chat', userMessageId: 'u2', content: '\udc00 x' } }), 'content');
      expect(scripted.calls).toHaveLength(0);
      expect(await f.rows('ai-messages')).toEqual([]);
      expect((await f.rows('ai-chats')).map((r) => r.recordId)).toEqual([chatId]);
    });

    it('an edit: 400 naming content, the stored turn unchanged', async () => {
      const { f, scripted, chatId } = await setup();
      await readSse(await f.request('POST', '/chat', { body: { chatId, userMessageId: 'u1', content: 'Hello' } }));
      const res = await f.request('POST', '/chat', { body: { chatId, trigger: 'edit', userMessageId: 'u1', content: LONE } });
      await expectRefused(res, 'content');
      expect(scripted.calls).toHaveLength(1);
      expect((await f.rows('ai-messages')).find((r) => r.data.role === 'user')?.data.content).toBe('Hello');
    });

    it('chat titles: POST /chats and PATCH /chats/:id', async () => {
      const { f, chatId } = await setup();
      await expectRefused(await f.request('POST', '/chats', { body: { title: LONE } }), 'title');
      await expectRefused(await f.request('PATCH', `/chats/${chatId}`, { body: { title: LONE } }), 'title');
    });

    it('a pair that makes a whole character is text like any other', async () => {
      const { f, chatId } = await setup();
      const turn = await readSse(await f.request('POST', '/chat', { body: { chatId, userMessageId: 'u1', content: 'a \ud83d\ude00 smile' } }));
      expect(turn.done).toBe(true);
      expect((await f.rows('ai-messages')).find((r) => r.data.role === 'user')?.data.content).toBe('a \ud83d\ude00 smile');
    });
  });
}
