import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqlDriver } from './create-sql-driver.js';
import { backends, type OpenedBackend } from './testing/test-backends.js';

/** Polls `attempt` until it returns non-null; no timing assertions, only a generous give-up. */
async function eventually<T>(attempt: () => Promise<T | null>, giveUpMs = 10_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await attempt();
    if (value !== null) return value;
    if (Date.now() - started > giveUpMs) throw new Error('gave up waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

for (const backend of backends) {
  describe.skipIf(backend.skipReason !== '')(`turn leases on ${backend.name} ${backend.skipReason}`, () => {
    let opened: OpenedBackend;
    let first: SqlDriver;
    let second: SqlDriver;
    beforeAll(async () => {
      opened = await backend.open('leases');
      first = opened.driver;
      second = await opened.openPeer(); // the server: a second pool, as a second process would have
    });
    afterAll(() => opened?.cleanup());

    it('gives a live key to one holder only; the other driver gets null', async () => {
      const lease = await first.leases.acquire('chat-1', { ttlMs: 60_000 });
      expect(lease?.key).toBe('chat-1');
      expect(await second.leases.acquire('chat-1', { ttlMs: 60_000 })).toBeNull();
      expect(await first.leases.acquire('chat-1', { ttlMs: 60_000 })).toBeNull();
      await lease?.release();
      const next = await second.leases.acquire('chat-1', { ttlMs: 60_000 });
      expect(next).not.toBeNull();
      await next?.release();
    });

    it('lets exactly one of many concurrent acquirers win', async () => {
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) => (i % 2 ? first : second).leases.acquire('chat-race', { ttlMs: 60_000 })),
      );
      expect(results.filter((lease) => lease !== null)).toHaveLength(1);
    });

    it('hands the key over once a crashed holder’s ttl has passed', async () => {
      const crashed = await first.leases.acquire('chat-crash', { ttlMs: 150 });
      expect(crashed).not.toBeNull();
      // The holder never releases or renews. Poll until the lease expires on the database clock.
      const taken = await eventually(() => second.leases.acquire('chat-crash', { ttlMs: 60_000 }));
      expect(taken.key).toBe('chat-crash');
      // The crashed holder lost it: renew fails and its release does not free the new holder's lease.
      expect(await crashed?.renew()).toBe(false);
      await crashed?.release();
      expect(await first.leases.acquire('chat-crash', { ttlMs: 60_000 })).toBeNull();
      await taken.release();
    });

    it('a released holder can neither renew nor release the next holder’s lease', async () => {
      const a = await first.leases.acquire('chat-3', { ttlMs: 60_000 });
      await a?.release();
      const b = await second.leases.acquire('chat-3', { ttlMs: 60_000 });
      expect(b).not.toBeNull();
      expect(await a?.renew()).toBe(false);
      await a?.release(); // not the holder any more: must not delete b's row
      expect(await first.leases.acquire('chat-3', { ttlMs: 60_000 })).toBeNull();
      expect(await b?.renew()).toBe(true);
      await b?.release();
    });

    it('renew keeps an expired-but-not-taken lease and extends it', async () => {
      const lease = await first.leases.acquire('chat-4', { ttlMs: 100 });
      await eventually(async () => {
        const row = await opened.sql.query(
          `SELECT 1 FROM "${opened.schema}".chatwire_leases WHERE key = $1 AND expires_at <= clock_timestamp()`,
          ['chat-4'],
        );
        return row.rows.length > 0 ? true : null;
      });
      expect(await lease?.renew()).toBe(true);
      expect(await second.leases.acquire('chat-4', { ttlMs: 60_000 })).toBeNull();
      await lease?.release();
    });

    it('holds is false for the old holder once the lease was taken over after expiry', async () => {
      const old = await first.leases.acquire('chat-fence', { ttlMs: 100 });
      if (!old) throw new Error('no lease');
      expect(await second.leases.holds('chat-fence', old.holder)).toBe(true); // any process can check
      const taken = await eventually(() => second.leases.acquire('chat-fence', { ttlMs: 60_000 }));
      expect(await first.leases.holds('chat-fence', old.holder)).toBe(false);
      expect(await first.transaction((tx) => tx.leases.holds('chat-fence', old.holder))).toBe(false);
      expect(await first.leases.holds('chat-fence', taken.holder)).toBe(true);
      await taken.release();
    });

    // PGlite is one connection: while a transaction runs nothing else does, so there is nothing to wait for.
    if (backend.name !== 'pglite') it('inside a transaction that checked holds, another connection’s acquire of the expired key waits until commit', async () => {
      const lease = await first.leases.acquire('chat-lock', { ttlMs: 200 });
      if (!lease) throw new Error('no lease');
      let taken: unknown = 'pending';
      let takeover: Promise<unknown> | undefined;
      await first.transaction(async (tx) => {
        expect(await tx.leases.holds('chat-lock', lease.holder)).toBe(true);
        // Let the lease expire on the database clock while the transaction is open.
        await eventually(async () => {
          const row = await opened.sql.query(
            `SELECT 1 FROM "${opened.schema}".chatwire_leases WHERE key = $1 AND expires_at <= clock_timestamp()`,
            ['chat-lock'],
          );
          return row.rows.length > 0 ? true : null;
        });
        takeover = second.leases.acquire('chat-lock', { ttlMs: 60_000 }).then((l) => (taken = l));
        // The peer's upsert is blocked on the row lock this transaction holds.
        await eventually(async () => {
          const waiting = await opened.sql.query(
            `SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE $1`,
            [`%"${opened.schema}".%leases%`],
          );
          return waiting.rows.length > 0 ? true : null;
        });
        expect(taken).toBe('pending');
        await tx.insert('fenced', { recordId: 'saved', data: {} });
      });
      await takeover;
      expect(taken).not.toBeNull(); // the lease had expired: once the save committed, the peer took it
      expect(await first.get('fenced', 'saved')).not.toBeNull();
      expect(await first.leases.holds('chat-lock', lease.holder)).toBe(false);
      await (taken as { release(): Promise<void> }).release();
    });

    it('rejects an empty key, a NUL in the key and a non-positive ttl with VALIDATION', async () => {
      await expect(first.leases.acquire('', { ttlMs: 1000 })).rejects.toMatchObject({ code: 'VALIDATION' });
      await expect(first.leases.acquire('a\u0000b', { ttlMs: 1000 })).rejects.toMatchObject({ code: 'VALIDATION' });
      await expect(first.leases.acquire('k', { ttlMs: 0 })).rejects.toMatchObject({ code: 'VALIDATION' });
      await expect(first.leases.acquire('k', { ttlMs: Number.NaN })).rejects.toMatchObject({ code: 'VALIDATION' });
    });
  });
}
