import { describe, expect, it } from 'vitest';
import { createMemoryLeases } from './create-memory-leases.js';

describe('createMemoryLeases with an injected clock', () => {
  it('expires after ttl, renew extends from now, takeover ends the old holder', async () => {
    let now = 1000;
    const leases = createMemoryLeases({ now: () => now });
    const lease = await leases.acquire('chat', { ttlMs: 100 });
    now = 1099;
    expect(await leases.acquire('chat', { ttlMs: 100 })).toBeNull();
    expect(await lease?.renew()).toBe(true); // now valid until 1199
    now = 1150;
    expect(await leases.acquire('chat', { ttlMs: 100 })).toBeNull();
    now = 1199;
    const taker = await leases.acquire('chat', { ttlMs: 100 });
    expect(taker).not.toBeNull();
    expect(await lease?.renew()).toBe(false);
    await lease?.release();
    expect(await leases.acquire('chat', { ttlMs: 100 })).toBeNull();
  });

  it('an expired lease nobody took over can still be renewed', async () => {
    let now = 0;
    const leases = createMemoryLeases({ now: () => now });
    const lease = await leases.acquire('k', { ttlMs: 10 });
    now = 50;
    expect(await lease?.renew()).toBe(true);
    expect(await leases.acquire('k', { ttlMs: 10 })).toBeNull();
  });

  it('rejects empty keys and non-positive ttl', async () => {
    const leases = createMemoryLeases();
    await expect(leases.acquire('', { ttlMs: 10 })).rejects.toMatchObject({ code: 'VALIDATION' });
    await expect(leases.acquire('k', { ttlMs: 0 })).rejects.toMatchObject({ code: 'VALIDATION' });
    await expect(leases.acquire('k', { ttlMs: Number.NaN })).rejects.toMatchObject({ code: 'VALIDATION' });
  });
});
