import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import pg from 'pg';
import { ChatwireError } from '@chatwire/storage';
import { createPostgresDriver } from './create-postgres-driver.js';
import type { SqlDriver } from './create-sql-driver.js';
import { databaseUrl, SERVER_SKIP_REASON, uniqueSchema } from './testing/test-backends.js';

/** Polls until `ready()` holds; only a generous give-up, no timing assertion. */
async function until(ready: () => boolean | Promise<boolean>, what: string, giveUpMs = 15_000): Promise<void> {
  const started = Date.now();
  while (!(await ready())) {
    if (Date.now() - started > giveUpMs) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe.skipIf(!databaseUrl)(`a lost PostgreSQL connection never takes the process down ${databaseUrl ? '' : SERVER_SKIP_REASON}`, () => {
  const schema = uniqueSchema('lost');
  const admin = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  const pools: pg.Pool[] = [];
  const drivers: SqlDriver[] = [];
  let uncaught: unknown[] = [];
  const spy = (error: unknown) => uncaught.push(error);
  let n = 0;

  /** A driver over its own pool with a distinct application_name, to find its backends. */
  function open(options: { onError?: (error: unknown) => void } = {}) {
    const name = `cw_lost_${process.pid}_${n++}`;
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 3, application_name: name });
    pools.push(pool);
    const driver = createPostgresDriver({ pool, schema, ...options });
    drivers.push(driver);
    return { driver, pool, name };
  }
  const backends = async (name: string, state?: string) =>
    (
      await admin.query<{ pid: number }>(
        `SELECT pid FROM pg_stat_activity WHERE application_name = $1 ${state ? 'AND state = $2' : ''}`,
        state ? [name, state] : [name],
      )
    ).rows.map((r) => r.pid);
  const terminate = (pids: number[]) => admin.query('SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) AS pid', [pids]);

  beforeEach(() => {
    uncaught = [];
    process.on('uncaughtException', spy);
  });
  afterEach(() => {
    process.off('uncaughtException', spy);
  });
  afterAll(async () => {
    await Promise.all(drivers.map((d) => d.close()));
    await Promise.all(pools.map((p) => p.end().catch(() => undefined)));
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin.end();
  });

  for (const withOnError of [true, false]) {
    it(`a backend terminated while its transaction is idle: the transaction rejects with UNAVAILABLE, the next insert works (${withOnError ? 'with' : 'without'} onError)`, async () => {
      const errors: unknown[] = [];
      const { driver, name } = open(withOnError ? { onError: (e) => errors.push(e) } : {});
      await driver.ready();
      const outcome = await driver
        .transaction(async (tx) => {
          await tx.insert('turns', { recordId: `before-${String(withOnError)}`, data: {} });
          let idle: number[] = [];
          await until(async () => (idle = await backends(name, 'idle in transaction')).length === 1, 'the idle transaction');
          await terminate(idle);
          if (withOnError) await until(() => errors.length > 0, 'the reported connection error');
          await tx.insert('turns', { recordId: `after-${String(withOnError)}`, data: {} });
          return 'committed?';
        })
        .catch((error: unknown) => error);
      expect(ChatwireError.is(outcome, 'UNAVAILABLE'), String(outcome)).toBe(true);
      expect((outcome as Error).message).toBe('The database connection was lost');
      expect(uncaught).toEqual([]);
      if (withOnError) expect(String(errors[0])).toMatch(/terminat/i);
      // Nothing of the broken transaction is stored, and the pool serves the next statements.
      expect(await driver.get('turns', `before-${String(withOnError)}`)).toBeNull();
      const { created } = await driver.insert('turns', { recordId: `next-${String(withOnError)}`, data: {} });
      expect(created).toBe(true);
    });
  }

  it('every backend of the pool terminated while idle: the errors go to onError and the next query succeeds', async () => {
    const errors: unknown[] = [];
    const { driver, pool, name } = open({ onError: (e) => errors.push(e) });
    // Three idle pooled connections.
    await Promise.all([1, 2, 3].map((i) => driver.transaction((tx) => tx.insert('idle', { recordId: `r${i}`, data: {} }))));
    const pids = await backends(name);
    expect(pids.length).toBeGreaterThan(0);
    await terminate(pids);
    await until(() => errors.length >= pids.length, 'one reported error per terminated connection');
    expect(pool.totalCount).toBe(0); // the dead clients were discarded
    expect((await driver.get('idle', 'r1'))?.recordId).toBe('r1');
    expect(uncaught).toEqual([]);
  });

  it('a statement on a database that cannot be reached is UNAVAILABLE, not a crash', async () => {
    const url = new URL(databaseUrl as string);
    url.port = '1'; // nothing listens there
    const driver = createPostgresDriver({ connectionString: url.toString(), schema });
    drivers.push(driver);
    await expect(driver.get('c', 'x')).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    await expect(driver.transaction(async () => 'x')).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    await expect(driver.notifications?.publish('c', 'p')).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    await expect(driver.notifications?.subscribe('c', () => {})).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    await expect(driver.leases.acquire('k', { ttlMs: 1000 })).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    expect(uncaught).toEqual([]);
  });
});
