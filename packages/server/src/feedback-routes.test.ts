import { afterAll, describe, expect, it } from 'vitest';
import { chatFixture, readSse, type ChatFixture } from './test-support/chat-fixture.js';
import { scriptedModel, textStep } from './test-support/scripted-model.js';
import { storeBackends } from './test-support/store-backends.js';

interface Message {
  recordId: string;
  data: { role: string; content: string };
  feedback?: { rating: string; comment?: string; updatedAt: string };
}

const backends = storeBackends('cw_feedback');
afterAll(async () => {
  for (const backend of backends) await backend.close();
});

async function turn(f: ChatFixture, body: Record<string, unknown>): Promise<string> {
  const res = await f.request('POST', '/chat', { body });
  expect(res.status).toBe(200);
  expect((await readSse(res)).done).toBe(true);
  return res.headers.get('x-asst-id')!;
}

async function messages(f: ChatFixture, chatId: string, user = 'alice'): Promise<Message[]> {
  const res = await f.request('GET', `/chats/${chatId}`, { user });
  expect(res.status).toBe(200);
  return ((await res.json()) as { messages: Message[] }).messages;
}

const feedbackPath = (chatId: string, messageId: string) => `/chats/${chatId}/messages/${encodeURIComponent(messageId)}/feedback`;

for (const backend of backends) {
  describe.skipIf(backend.skipReason !== '')(`feedback through the handler on ${backend.name} ${backend.skipReason}`.trim(), () => {
    function fixture(texts: string[], events: unknown[] = []) {
      return chatFixture(scriptedModel(texts.map((text) => textStep(text))).model, {
        driver: backend.driver(),
        handler: { onFeedback: (event) => void events.push(event) },
      });
    }

    it('rates an answer with the model of its turn, shows it on the message, replaces it, and removes it', async () => {
      const events: unknown[] = [];
      const f = fixture(['A1'], events);
      const chatId = await f.createChat('alice');
      const asst = await turn(f, { chatId, userMessageId: 'u1', content: 'Hi' });
      const [turnRow] = await f.rows('ai-turns');

      const up = await f.request('PUT', feedbackPath(chatId, asst), { body: { rating: 'up' } });
      expect(up.status).toBe(200);
      const { feedback } = (await up.json()) as { feedback: Record<string, unknown> };
      expect(feedback).toMatchObject({ chatId, messageId: asst, rating: 'up', modelId: turnRow!.data.modelId });
      expect(feedback).not.toHaveProperty('comment');
      expect((await messages(f, chatId)).map((m) => m.feedback?.rating)).toEqual([undefined, 'up']);

      const down = await f.request('PUT', feedbackPath(chatId, asst), { body: { rating: 'down', comment: '  Wrong year.  ' } });
      expect(down.status).toBe(200);
      const shown = (await messages(f, chatId))[1]!.feedback!;
      expect(shown).toEqual({ rating: 'down', comment: 'Wrong year.', updatedAt: expect.any(String) });
      const rows = await f.rows('ai-feedback');
      expect(rows).toHaveLength(1);
      expect(rows[0]!.data).toMatchObject({ userId: 'alice', rating: 'down', modelId: turnRow!.data.modelId, provider: turnRow!.data.provider });

      const removed = await f.request('DELETE', feedbackPath(chatId, asst));
      expect(removed.status).toBe(200);
      expect(await removed.json()).toEqual({ deleted: { chatId, messageId: asst } });
      expect((await messages(f, chatId))[1]).not.toHaveProperty('feedback');
      expect((await f.request('DELETE', feedbackPath(chatId, asst))).status).toBe(404);
      expect(events).toMatchObject([
        { action: 'set', userId: 'alice', chatId, messageId: asst, rating: 'up', modelId: turnRow!.data.modelId },
        { action: 'set', rating: 'down', comment: 'Wrong year.' },
        { action: 'delete', rating: null, modelId: turnRow!.data.modelId },
      ]);
    });

    it('refuses a user message (400), bad bodies (400), and another user’s chat, a missing or unstored message (404)', async () => {
      const f = fixture(['A1']);
      const chatId = await f.createChat('alice');
      const other = await f.createChat('alice');
      const asst = await turn(f, { chatId, userMessageId: 'u1', content: 'Hi' });

      const user = await f.request('PUT', feedbackPath(chatId, 'u1'), { body: { rating: 'up' } });
      expect(user.status).toBe(400);
      expect(await user.json()).toEqual({ error: { code: 'VALIDATION', message: 'Only assistant messages take feedback' } });
      // A user message has no rating to remove.
      expect((await f.request('DELETE', feedbackPath(chatId, 'u1'))).status).toBe(404);
      for (const body of [{}, { rating: 'meh' }, { rating: 'up', comment: 7 }, { rating: 'up', comment: 'x'.repeat(2001) }, [1]]) {
        const res = await f.request('PUT', feedbackPath(chatId, asst), { body });
        expect(res.status).toBe(400);
        expect(((await res.json()) as { error: { code: string } }).error.code).toBe('VALIDATION');
      }
      expect((await f.request('PUT', feedbackPath(chatId, asst), { raw: '{"rating":' })).status).toBe(400);

      const notFound = [
        await f.request('PUT', feedbackPath(chatId, asst), { user: 'bob', body: { rating: 'up' } }),
        await f.request('DELETE', feedbackPath(chatId, asst), { user: 'bob' }),
        await f.request('PUT', feedbackPath(other, asst), { body: { rating: 'up' } }),
        await f.request('PUT', feedbackPath(chatId, 'no-such-message'), { body: { rating: 'up' } }),
        await f.request('PUT', feedbackPath(chatId, 'no such id!'), { body: { rating: 'up' } }),
        // An X-Asst-Id whose turn is not stored (yet): nothing to rate.
        await f.request('PUT', feedbackPath(chatId, crypto.randomUUID()), { body: { rating: 'up' } }),
        await f.request('PUT', feedbackPath('no-such-chat', asst), { body: { rating: 'up' } }),
      ];
      expect(notFound.map((res) => res.status)).toEqual([404, 404, 404, 404, 404, 404, 404]);
      expect(await f.rows('ai-feedback')).toEqual([]);
      expect((await f.request('POST', feedbackPath(chatId, asst))).status).toBe(405);
      expect((await f.request('PUT', feedbackPath(chatId, asst), { user: null, body: { rating: 'up' } })).status).toBe(401);
    });

    it('goes with its message: regenerate and edit delete the replaced answer’s rating, chat delete all of them', async () => {
      const f = fixture(['A1', 'A2', 'A2 again', 'A1 edited', 'B1']);
      const chatId = await f.createChat('alice');
      const first = await turn(f, { chatId, userMessageId: 'u1', content: 'one' });
      const second = await turn(f, { chatId, userMessageId: 'u2', content: 'two' });
      for (const id of [first, second]) expect((await f.request('PUT', feedbackPath(chatId, id), { body: { rating: 'up' } })).status).toBe(200);

      // Regenerate replaces the last answer: its rating goes, the first answer's stays.
      const again = await turn(f, { chatId, trigger: 'regenerate' });
      expect((await f.rows('ai-feedback')).map((r) => r.recordId)).toEqual([first]);
      expect((await messages(f, chatId)).map((m) => [m.recordId, m.feedback?.rating])).toEqual([
        ['u1', undefined],
        [first, 'up'],
        ['u2', undefined],
        [again, undefined],
      ]);
      expect((await f.request('PUT', feedbackPath(chatId, second), { body: { rating: 'down' } })).status).toBe(404);

      // Editing the first message replaces everything after it, ratings included.
      expect((await f.request('PUT', feedbackPath(chatId, again), { body: { rating: 'down' } })).status).toBe(200);
      await turn(f, { chatId, trigger: 'edit', userMessageId: 'u1', content: 'one, edited' });
      expect(await f.rows('ai-feedback')).toEqual([]);

      // Deleting a chat deletes its ratings, and no other chat's.
      const kept = await f.createChat('alice');
      const keptAnswer = await turn(f, { chatId: kept, userMessageId: 'k1', content: 'keep' });
      expect((await f.request('PUT', feedbackPath(kept, keptAnswer), { body: { rating: 'up' } })).status).toBe(200);
      const last = (await messages(f, chatId)).at(-1)!.recordId;
      expect((await f.request('PUT', feedbackPath(chatId, last), { body: { rating: 'up' } })).status).toBe(200);
      expect((await f.request('DELETE', `/chats/${chatId}`)).status).toBe(200);
      expect((await f.rows('ai-feedback')).map((r) => r.recordId)).toEqual([keptAnswer]);
    });

    it('a throwing onFeedback hook is reported and the rating still stands', async () => {
      const boom = new Error('hook failed');
      const f = chatFixture(scriptedModel([textStep('A1')]).model, {
        driver: backend.driver(),
        handler: {
          onFeedback: () => {
            throw boom;
          },
        },
      });
      const chatId = await f.createChat('alice');
      const asst = await turn(f, { chatId, userMessageId: 'u1', content: 'Hi' });
      expect((await f.request('PUT', feedbackPath(chatId, asst), { body: { rating: 'up' } })).status).toBe(200);
      expect(f.errors).toEqual([boom]);
      expect((await messages(f, chatId))[1]!.feedback?.rating).toBe('up');
    });
  });
}
