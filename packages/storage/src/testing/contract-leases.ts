import { describe, expect, it } from 'vitest';
import type { TurnLeases } from '../turn-leases.js';
import type { ContractContext } from './contract-context.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function describeLeases(ctx: ContractContext): void {
  describe('leases', () => {
    const leases = (): TurnLeases => ctx.driver.leases;
    const key = () => `${ctx.collection('lease')}:chat`;

    it('acquire returns a lease; a second acquire of the same key returns null; other keys are free', async () => {
      const l = leases();
      const k = key();
      const lease = await l.acquire(k, { ttlMs: 60_000 });
      expect(lease?.key).toBe(k);
      expect(await l.acquire(k, { ttlMs: 60_000 })).toBeNull();
      const other = await l.acquire(`${k}2`, { ttlMs: 60_000 });
      expect(other).not.toBeNull();
      await lease?.release();
      await other?.release();
    });

    it('release frees the key; renew after release returns false', async () => {
      const l = leases();
      const k = key();
      const lease = await l.acquire(k, { ttlMs: 60_000 });
      expect(await lease?.renew()).toBe(true);
      await lease?.release();
      expect(await lease?.renew()).toBe(false);
      const again = await l.acquire(k, { ttlMs: 60_000 });
      expect(again).not.toBeNull();
      await again?.release();
    });

    it('an expired lease can be taken over; the old holder can then neither renew nor release it', async () => {
      const l = leases();
      const k = key();
      const stale = await l.acquire(k, { ttlMs: 20 });
      expect(stale).not.toBeNull();
      await sleep(120);
      const fresh = await l.acquire(k, { ttlMs: 60_000 });
      expect(fresh).not.toBeNull();
      expect(await stale?.renew()).toBe(false);
      await stale?.release();
      expect(await l.acquire(k, { ttlMs: 60_000 })).toBeNull();
      await fresh?.release();
    });

    it('renew keeps a live lease held', async () => {
      const l = leases();
      const k = key();
      const lease = await l.acquire(k, { ttlMs: 60_000 });
      expect(await lease?.renew()).toBe(true);
      expect(await l.acquire(k, { ttlMs: 60_000 })).toBeNull();
      await lease?.release();
    });

    it('holds is true only for the live holder; every acquisition has its own holder id', async () => {
      const l = leases();
      const k = key();
      const lease = await l.acquire(k, { ttlMs: 60_000 });
      if (!lease) throw new Error('no lease');
      expect(typeof lease.holder).toBe('string');
      expect(await l.holds(k, lease.holder)).toBe(true);
      expect(await l.holds(k, `${lease.holder}x`)).toBe(false);
      expect(await l.holds(`${k}2`, lease.holder)).toBe(false);
      await lease.release();
      expect(await l.holds(k, lease.holder)).toBe(false);
      const next = await l.acquire(k, { ttlMs: 60_000 });
      expect(next?.holder).not.toBe(lease.holder);
      expect(await l.holds(k, next?.holder ?? '')).toBe(true);
      await next?.release();
    });

    it('a lease taken over after expiry: holds is false for the old holder, true for the new one', async () => {
      const l = leases();
      const k = key();
      const stale = await l.acquire(k, { ttlMs: 20 });
      if (!stale) throw new Error('no lease');
      await sleep(120);
      expect(await l.holds(k, stale.holder)).toBe(false); // expired, even before anyone took it
      const fresh = await l.acquire(k, { ttlMs: 60_000 });
      expect(await l.holds(k, stale.holder)).toBe(false);
      expect(await l.holds(k, fresh?.holder ?? '')).toBe(true);
      await fresh?.release();
    });

    it("tx.leases.holds answers inside a transaction, and a fenced write commits", async () => {
      const l = leases();
      const k = key();
      const c = ctx.collection('fenced');
      const lease = await l.acquire(k, { ttlMs: 60_000 });
      if (!lease) throw new Error('no lease');
      const stored = await ctx.driver.transaction(async (tx) => {
        expect(await tx.leases.holds(k, 'someone-else')).toBe(false);
        if (!(await tx.leases.holds(k, lease.holder))) return false;
        await tx.insert(c, { recordId: 'saved', data: {} });
        return true;
      });
      expect(stored).toBe(true);
      expect(await ctx.driver.get(c, 'saved')).not.toBeNull();
      await lease.release();
    });

    it('release is safe to call many times, also concurrently, and never frees the next holder', async () => {
      const l = leases();
      const k = key();
      const lease = await l.acquire(k, { ttlMs: 60_000 });
      await Promise.all([lease?.release(), lease?.release()]);
      await lease?.release();
      const next = await l.acquire(k, { ttlMs: 60_000 });
      expect(next).not.toBeNull();
      await lease?.release();
      expect(await l.holds(k, next?.holder ?? '')).toBe(true);
      await next?.release();
      await next?.release();
    });

    it('isHeld reads whether anyone holds a live lease, and never takes one', async () => {
      const l = leases();
      const k = key();
      expect(await l.isHeld(k)).toBe(false);
      // Asking about a free key leaves it free: the next acquire gets it.
      const lease = await l.acquire(k, { ttlMs: 60_000 });
      expect(lease).not.toBeNull();
      expect(await l.isHeld(k)).toBe(true);
      expect(await l.isHeld(`${k}2`)).toBe(false);
      // Asking about a held key neither frees nor extends it.
      expect(await lease?.renew()).toBe(true);
      expect(await l.acquire(k, { ttlMs: 60_000 })).toBeNull();
      await lease?.release();
      expect(await l.isHeld(k)).toBe(false);
      const expiring = await l.acquire(k, { ttlMs: 20 });
      await sleep(120);
      expect(await l.isHeld(k)).toBe(false); // expired, even before anyone took it
      expect(await expiring?.renew()).toBe(true); // not taken over by the question: its holder can still renew
      expect(await l.isHeld(k)).toBe(true);
      expect(await ctx.driver.transaction((tx) => tx.leases.isHeld(k))).toBe(true);
      await expiring?.release();
      expect(await ctx.driver.transaction((tx) => tx.leases.isHeld(k))).toBe(false);
    });

    it('store access: holdsLease checks a lease, inside a transaction too', async () => {
      const l = leases();
      const k = key();
      const store = ctx.store([]);
      const lease = await l.acquire(k, { ttlMs: 60_000 });
      if (!lease) throw new Error('no lease');
      expect(await store.asServer().holdsLease(lease)).toBe(true);
      expect(await store.asServer().transaction((access) => access.holdsLease(lease))).toBe(true);
      await lease.release();
      expect(await store.asServer().holdsLease({ key: lease.key, holder: lease.holder })).toBe(false);
    });
  });
}
