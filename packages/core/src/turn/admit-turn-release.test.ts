import type { TurnLease } from '@chatwire/storage';
import { describe, expect, it, vi } from 'vitest';
import { scriptedModel, textStep } from './testing/scripted-model.js';
import { turnHarness } from './testing/turn-harness.js';

describe('admitTurn: the lease of a refused admission', () => {
  it('is released even when the first release fails: the failure is reported with the chat, and retried', async () => {
    const h = turnHarness();
    const chatId = await h.createChat();
    await h.seed(chatId, [{ id: 'u1', role: 'user', content: 'first' }]);
    const outage = new Error('connection reset while releasing');
    const acquire = h.store.leases.acquire.bind(h.store.leases);
    let attempts = 0;
    vi.spyOn(h.store.leases, 'acquire').mockImplementationOnce(async (key, options) => {
      const lease = (await acquire(key, options)) as TurnLease;
      return {
        ...lease,
        release: async () => {
          attempts++;
          if (attempts === 1) throw outage;
          await lease.release();
        },
      };
    });
    const refused = h.admit({ chatId, userMessageId: 'u1', content: 'again' }, scriptedModel([textStep('x')]).model);
    await expect(refused).rejects.toMatchObject({ code: 'DUPLICATE_MESSAGE' });
    expect(h.errors).toEqual([{ error: outage, context: { stage: 'lease', chatId, userId: 'alice' } }]);
    // The background retry frees the chat well before the lease's ttl.
    await expect.poll(() => attempts, { timeout: 5_000 }).toBe(2);
    const next = await h.store.leases.acquire(`chat:${chatId}`, { ttlMs: 1_000 });
    expect(next).not.toBeNull();
    await next?.release();
  });
});
