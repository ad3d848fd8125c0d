import { afterAll, describe, expect, it } from 'vitest';
import pg from 'pg';
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

describe.skipIf(!databaseUrl)(`notifications across processes on the postgres server ${databaseUrl ? '' : SERVER_SKIP_REASON}`, () => {
  const schema = uniqueSchema('notify');
  const pools: pg.Pool[] = [];
  const drivers: SqlDriver[] = [];
  const admin = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  /** A driver over its own pool, as another process would have, with a distinct application_name. */
  const open = (name: string, options: { schema?: string; onError?: (error: unknown) => void } = {}) => {
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 2, application_name: name });
    pools.push(pool);
    const driver = createPostgresDriver({ pool, schema: options.schema ?? schema, ...(options.onError ? { onError: options.onError } : {}) });
    drivers.push(driver);
    return driver;
  };
  afterAll(async () => {
    await Promise.all(drivers.map((d) => d.close()));
    await Promise.all(pools.map((p) => p.end()));
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin.end();
  });

  it('a publish through one pool reaches a subscriber on another pool, both ways', async () => {
    const a = open(`cw_notify_a_${process.pid}`);
    const b = open(`cw_notify_b_${process.pid}`);
    expect(a.capabilities).toEqual({ sharedLeases: true, notifications: true, fullText: true });
    const atA: string[] = [];
    const atB: string[] = [];
    const offA = await a.notifications!.subscribe('chat:1', (p) => atA.push(p));
    const offB = await b.notifications!.subscribe('chat:1', (p) => atB.push(p));
    await a.notifications!.publish('chat:1', 'from a');
    await b.notifications!.publish('chat:1', 'from b');
    await until(() => atA.length === 2 && atB.length === 2, 'both payloads in both processes');
    expect(atA).toEqual(['from a', 'from b']);
    expect(atB).toEqual(['from a', 'from b']);
    await offA();
    await offB();
  });

  it('stores in different schemas on one database do not hear each other', async () => {
    const other = uniqueSchema('notify_other');
    const here = open(`cw_notify_here_${process.pid}`);
    const there = open(`cw_notify_there_${process.pid}`, { schema: other });
    const heard: string[] = [];
    const off = await here.notifications!.subscribe('stop', (p) => heard.push(p));
    await there.notifications!.publish('stop', 'other store');
    await here.notifications!.publish('stop', 'this store');
    await until(() => heard.length > 0, 'the own payload');
    expect(heard).toEqual(['this store']);
    await off();
    await admin.query(`DROP SCHEMA IF EXISTS "${other}" CASCADE`);
  });

  it('the listening connection reconnects after its backend is terminated, reporting the error through onError', async () => {
    const name = `cw_notify_kill_${process.pid}`;
    const errors: unknown[] = [];
    const listener = open(name, { onError: (e) => errors.push(e) });
    const publisher = open(`cw_notify_pub_${process.pid}`);
    const heard: string[] = [];
    await listener.notifications!.subscribe('turns', (p) => heard.push(p));
    const killed = await admin.query(
      `SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity WHERE application_name = $1 AND query ILIKE 'LISTEN%'`,
      [name],
    );
    expect(killed.rows).toEqual([{ ok: true }]);
    await until(() => errors.length > 0, 'the reported connection error');
    // Payloads sent while the connection is down are lost (at most once): publish until one arrives.
    let n = 0;
    await until(async () => {
      await publisher.notifications!.publish('turns', `after ${n++}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
      return heard.length > 0;
    }, 'a payload after the reconnect');
    expect(heard[0]).toMatch(/^after \d+$/);
  });
});
