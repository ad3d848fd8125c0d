import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { chatFixture, readSse } from './test-support/chat-fixture.js';
import { scriptedModel, textStep } from './test-support/scripted-model.js';
import { storeBackends } from './test-support/store-backends.js';

const backends = storeBackends('cw_feedback_race');
afterAll(async () => {
  for (const backend of backends) await backend.close();
});

const ROUNDS = 8;

for (const backend of backends) {
  describe.skipIf(backend.skipReason !== '')(`a rating racing the regenerate that replaces its answer, on ${backend.name} ${backend.skipReason}`.trim(), () => {
    it('never outlives its answer: either it is refused (404) or it is deleted with the answer', async () => {
      const f = chatFixture(scriptedModel([textStep('An answer in a few words.')]).model, { driver: backend.driver() });
      for (let round = 0; round < ROUNDS; round++) {
        const chatId = await f.createChat('alice');
        const started = performance.now();
        const first = await f.request('POST', '/chat', { body: { chatId, userMessageId: `u${round}`, content: 'Hi' } });
        await readSse(first);
        const turnMs = performance.now() - started;
        const answer = first.headers.get('x-asst-id')!;
        // The rating is sent at a different moment of the regenerate each round, spread over a turn's length
        // (only to vary the interleaving; nothing is asserted about timing).
        const [regenerate, rating] = await Promise.all([
          f.request('POST', '/chat', { body: { chatId, trigger: 'regenerate' } }).then(async (res) => (await readSse(res), res)),
          sleep((round * turnMs * 1.2) / ROUNDS).then(() => f.request('PUT', `/chats/${chatId}/messages/${answer}/feedback`, { body: { rating: 'up' } })),
        ]);
        expect(regenerate.status).toBe(200);
        expect([200, 404]).toContain(rating.status);
        const messages = ((await (await f.request('GET', `/chats/${chatId}`)).json()) as { messages: Array<{ recordId: string }> }).messages;
        expect(messages.map((m) => m.recordId)).not.toContain(answer);
        expect((await f.rows('ai-feedback')).filter((row) => row.data.chatId === chatId)).toEqual([]);
      }
      expect(f.errors).toEqual([]);
    });
  });
}
