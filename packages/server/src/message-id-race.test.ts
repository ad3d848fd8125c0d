import type { LanguageModelV2 } from '@ai-sdk/provider';
import { afterAll, describe, expect, it } from 'vitest';
import { chatFixture, readSse } from './test-support/chat-fixture.js';
import { scriptedModel, textStep } from './test-support/scripted-model.js';
import { storeBackends } from './test-support/store-backends.js';

/**
 * Two turns of one user at once that name the same client-chosen message id in two chats: admission checks the
 * id before either is stored, so both run and the second save meets the first's row. That turn's stream says
 * what happened; "send your message again" would only be refused with 409.
 */
const backends = storeBackends('cw_msgid_race');
afterAll(async () => {
  for (const backend of backends) await backend.close();
});

/** The scripted model behind a gate: every call waits until `open()`; `arrived` counts the calls waiting. */
function gatedModel() {
  const scripted = scriptedModel([textStep('An answer.')]);
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  let arrived = 0;
  const model: LanguageModelV2 = Object.assign(Object.create(Object.getPrototypeOf(scripted.model) as object) as object, scripted.model, {
    doStream: async (options: Parameters<LanguageModelV2['doStream']>[0]) => {
      arrived++;
      await gate;
      return scripted.model.doStream(options);
    },
  }) as LanguageModelV2;
  return { model, open, arrived: () => arrived };
}

for (const backend of backends) {
  describe.skipIf(backend.skipReason)(`one message id in two chats at once on ${backend.name} ${backend.skipReason}`, () => {
    it('one turn is stored; the other ends with the conflict text, and one user row exists', async () => {
      const gated = gatedModel();
      const f = chatFixture(gated.model, { driver: backend.driver() });
      const chats = [await f.createChat('alice'), await f.createChat('alice')];
      const turns = chats.map(async (chatId) => readSse(await f.request('POST', '/chat', { body: { chatId, userMessageId: 'dup', content: 'hi' } })));
      await expect.poll(() => gated.arrived()).toBe(2);
      gated.open();
      const ends = (await Promise.all(turns)).map(({ chunks }) => chunks.at(-1));
      expect(ends).toContainEqual({ type: 'finish', finishReason: 'stop' });
      expect(ends).toContainEqual({ type: 'error', errorText: 'Another turn stored this message id or its attachments at the same time; this reply was not saved.' });
      expect((await f.rows('ai-messages')).filter((r) => r.data.role === 'user')).toHaveLength(1);
    });
  });
}
