import { describe, expect, it } from 'vitest';
import { createMemoryLeases } from './create-memory-leases.js';
import { createMemoryDriver } from './create-memory-driver.js';
import type { TurnLease } from '../turn-leases.js';

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

describe('memory leases inside a memory transaction', () => {
  const turns = () => new Promise((resolve) => setImmediate(resolve));

  it('after tx.leases.holds answered true, an acquire of the expired key waits until the transaction ends', async () => {
    let now = 0;
    const driver = createMemoryDriver({ now: () => now });
    const lease = await driver.leases.acquire('chat', { ttlMs: 100 });
    if (!lease) throw new Error('no lease');
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    let checked!: () => void;
    const didCheck = new Promise<void>((resolve) => (checked = resolve));
    const save = driver.transaction(async (tx) => {
      expect(await tx.leases.holds('chat', lease.holder)).toBe(true);
      checked();
      await gate;
      await tx.insert('messages', { recordId: 'fenced', data: {} });
    });
    await didCheck;
    now = 1_000; // the lease expired while the save runs
    let taken: TurnLease | null | undefined;
    const takeover = driver.leases.acquire('chat', { ttlMs: 100 }).then((l) => (taken = l));
    for (let i = 0; i < 5; i++) await turns();
    expect(taken).toBeUndefined(); // still waiting for the save
    open();
    await save;
    await takeover;
    expect(taken).not.toBeNull();
    expect(await driver.get('messages', 'fenced')).not.toBeNull();
    expect(await driver.leases.holds('chat', lease.holder)).toBe(false);
    expect(await driver.leases.holds('chat', taken?.holder ?? '')).toBe(true);
  });

  it('a holds that answered false pins nothing, and a rolled back transaction unpins', async () => {
    let now = 0;
    const driver = createMemoryDriver({ now: () => now });
    const lease = await driver.leases.acquire('k', { ttlMs: 100 });
    await expect(
      driver.transaction(async (tx) => {
        expect(await tx.leases.holds('k', lease?.holder ?? '')).toBe(true);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    now = 1_000;
    await driver.transaction(async (tx) => {
      expect(await tx.leases.holds('k', lease?.holder ?? '')).toBe(false);
      expect(await driver.leases.acquire('k', { ttlMs: 100 })).not.toBeNull(); // not blocked
    });
  });

  it("a transaction's own pin does not block its own acquire", async () => {
    let now = 0;
    const driver = createMemoryDriver({ now: () => now });
    const lease = await driver.leases.acquire('k', { ttlMs: 100 });
    await driver.transaction(async (tx) => {
      expect(await tx.leases.holds('k', lease?.holder ?? '')).toBe(true);
      now = 1_000;
      expect(await tx.leases.acquire('k', { ttlMs: 100 })).not.toBeNull();
    });
  });
});
