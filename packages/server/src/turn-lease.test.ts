import { createModelRegistry, createChatService } from '@chatwire/core';
import { ChatwireError, createRecordStore, type StoreDriver, type TurnLeases } from '@chatwire/storage';
import { createMemoryDriver } from '@chatwire/storage/memory';
import { describe, expect, it } from 'vitest';
import { createChatHandler } from './create-chat-handler.js';
import { chatFixture, readSse, SECRET } from './test-support/chat-fixture.js';
import { scriptedModel, textStep } from './test-support/scripted-model.js';

const turnBody = (chatId: string, userMessageId: string) => ({ chatId, userMessageId, content: 'Hi' });

/** A memory driver whose lease release takes a few event-loop turns, like a database round trip. */
function slowReleaseDriver(): StoreDriver {
  const driver = createMemoryDriver();
  const inner = driver.leases;
  const leases: TurnLeases = {
    async acquire(key, options) {
      const lease = await inner.acquire(key, options);
      if (!lease) return null;
      return {
        key: lease.key,
        holder: lease.holder,
        renew: () => lease.renew(),
        async release() {
          for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
          await lease.release();
        },
      };
    },
    holds: (key, holder) => inner.holds(key, holder),
    isHeld: (key) => inner.isHeld(key),
  };
  return Object.assign(Object.create(Object.getPrototypeOf(driver) as object) as object, driver, { leases }) as StoreDriver;
}

describe('the turn lease', () => {
  it('is released before the stream ends, so the next message sent on [DONE] is not CHAT_BUSY', async () => {
    const f = chatFixture(scriptedModel([textStep('Hello.')]).model, { driver: slowReleaseDriver() });
    const chatId = await f.createChat('alice');
    const first = await readSse(await f.request('POST', '/chat', { body: turnBody(chatId, 'u1') }));
    expect(first.done).toBe(true);
    const next = await f.request('POST', '/chat', { body: turnBody(chatId, 'u2') });
    expect(next.status).toBe(200);
    expect((await readSse(next)).chunks.at(-1)).toEqual({ type: 'finish', finishReason: 'stop' });
  });

  it('is released before the stream ends after an abort too', async () => {
    const scripted = scriptedModel([textStep('Hello there, friend.')]);
    scripted.pauseAt(2);
    const f = chatFixture(scripted.model, { driver: slowReleaseDriver() });
    const chatId = await f.createChat('alice');
    const controller = new AbortController();
    const body = readSse(await f.request('POST', '/chat', { body: turnBody(chatId, 'u1'), signal: controller.signal }));
    await scripted.emitted(2);
    controller.abort();
    scripted.release();
    expect((await body).chunks.at(-1)).toEqual({ type: 'abort' });
    expect((await f.request('POST', '/chat', { body: turnBody(chatId, 'u2') })).status).toBe(200);
  });

  it('a turn whose lease was taken over stops and stores nothing', async () => {
    const driver = createMemoryDriver();
    const inner = driver.leases;
    const leases: TurnLeases = {
      async acquire(key, options) {
        const lease = await inner.acquire(key, options);
        return lease && { key: lease.key, holder: lease.holder, renew: async () => false, release: () => lease.release() };
      },
      holds: (key, holder) => inner.holds(key, holder),
      isHeld: (key) => inner.isHeld(key),
    };
    const lost = Object.assign(Object.create(Object.getPrototypeOf(driver) as object) as object, driver, { leases }) as StoreDriver;
    const scripted = scriptedModel([textStep('A slow answer.')]);
    scripted.pauseAt(1);
    // The lease is renewed every max(1 s, ttl / 3): this turn's first renewal fails after about a second.
    const f = chatFixture(scripted.model, { driver: lost, handler: { turnLeaseTtlMs: 300 } });
    const chatId = await f.createChat('alice');
    const body = readSse(await f.request('POST', '/chat', { body: turnBody(chatId, 'u1') }));
    await expect.poll(() => scripted.aborted, { timeout: 5_000 }).toBe(true);
    scripted.release();
    const { chunks, done } = await body;
    expect(done).toBe(true);
    expect(chunks.at(-1)).toEqual({ type: 'error', errorText: 'Another turn of this chat took over; this reply was not saved.' });
    expect(await f.rows('ai-messages')).toEqual([]);
  });
});

describe('turnLeaseTtlMs', () => {
  // 0 once reached the leases, which refused every turn with a 400 (and Redis sharing failed at start-up).
  it.each([0, -5, Number.NaN])('%s is a CONFIGURATION error when the handler or the service is made, not a 400 on every turn', (ttl) => {
    const store = createRecordStore({ driver: createMemoryDriver() });
    const models = createModelRegistry({ fallbackModel: scriptedModel([textStep('x')]).model });
    const configuration = (make: () => unknown) => {
      try {
        make();
      } catch (error) {
        return ChatwireError.is(error, 'CONFIGURATION') ? (error as Error).message : `other: ${String(error)}`;
      }
      return 'no error';
    };
    expect(configuration(() => createChatHandler({ store, models, auth: { secret: SECRET }, turnLeaseTtlMs: ttl }))).toMatch(/turnLeaseTtlMs must be at least 1 millisecond/);
    expect(configuration(() => createChatService({ store, models, turnLeaseTtlMs: ttl }))).toMatch(/turnLeaseTtlMs must be at least 1 millisecond/);
  });
});
