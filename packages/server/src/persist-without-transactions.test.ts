import type { StoreDriver } from '@chatwire/storage';
import { createMemoryDriver } from '@chatwire/storage/memory';
import { withFaults } from '@chatwire/storage/testing';
import { describe, expect, it } from 'vitest';
import { chatFixture, readSse } from './test-support/chat-fixture.js';
import { scriptedModel, textStep } from './test-support/scripted-model.js';

/** The driver without `transaction`: persistence writes user, assistant and turn rows one by one. */
function withoutTransactions(driver: StoreDriver): StoreDriver {
  const { transaction: _t, ...rest } = driver as StoreDriver & Record<string, unknown>;
  return Object.assign(Object.create(Object.getPrototypeOf(driver) as object) as object, rest) as StoreDriver;
}

describe('persistence without driver transactions', () => {
  it('a turn row failing twice still finishes the turn: the stored reply is not reported as lost', async () => {
    const faulty = withFaults(createMemoryDriver());
    const f = chatFixture(scriptedModel([textStep('Answer.')]).model, { driver: withoutTransactions(faulty) });
    const chatId = await f.createChat('alice');
    faulty.failNext(2, { op: 'insert', collection: 'ai-turns' });
    const res = await f.request('POST', '/chat', { body: { chatId, userMessageId: 'u1', content: 'Hi' } });
    const asstId = res.headers.get('x-asst-id');
    const { chunks, done } = await readSse(res);
    expect(done).toBe(true);
    expect(chunks.at(-1)).toEqual({ type: 'finish', finishReason: 'stop' });
    expect((await f.rows('ai-messages')).map((m) => [m.recordId, m.data.role])).toEqual([
      ['u1', 'user'],
      [asstId, 'assistant'],
    ]);
    expect(await f.rows('ai-turns')).toEqual([]);
    expect(f.errors.length).toBeGreaterThan(0); // the lost turn row is still reported
  });
});
