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
  });
}
