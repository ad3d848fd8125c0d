import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { defineBlobContract } from '@chatwire/storage/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { createPostgresBlobStore } from './create-postgres-blob-store.js';
import { createSqlBlobStore } from './create-sql-blob-store.js';
import { createPgliteExecutor } from './create-pglite-executor.js';
import { databaseUrl, SERVER_SKIP_REASON, sharedPglite, uniqueSchema } from './testing/test-backends.js';

describe('pglite', () => {
  const schema = uniqueSchema('blobs');
  defineBlobContract({
    name: 'postgres bytea (pglite)',
    createStore: async () => createSqlBlobStore({ executor: createPgliteExecutor(await sharedPglite()), schema, chunkBytes: 64 * 1024 }),
    cleanup: async () => {
      await (await sharedPglite()).query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    },
  });

  it('adds stored_at to a blob table made before it existed, keeping its rows', async () => {
    const db = await sharedPglite();
    const old = uniqueSchema('blobs_old');
    await db.query(`CREATE SCHEMA "${old}"`);
    await db.query(`CREATE TABLE "${old}"."chatwire_blobs" (key text NOT NULL, seq integer NOT NULL, bytes bytea NOT NULL, PRIMARY KEY (key, seq))`);
    await db.query(`INSERT INTO "${old}"."chatwire_blobs" VALUES ('before', 0, '\\x0102')`);
    const store = createSqlBlobStore({ executor: createPgliteExecutor(db), schema: old });
    expect(Array.from((await store.get('before'))!)).toEqual([1, 2]);
    await store.put('after', (async function* () {
      yield new Uint8Array([3]);
    })());
    const listed: string[] = [];
    for await (const { key, storedAt } of store.list!()) if (storedAt instanceof Date && !Number.isNaN(storedAt.getTime())) listed.push(key);
    expect(listed.sort()).toEqual(['after', 'before']);
    await db.query(`DROP SCHEMA "${old}" CASCADE`);
  });
});

describe.skipIf(!databaseUrl)(`postgres server ${databaseUrl ? '' : SERVER_SKIP_REASON}`, () => {
  const schema = uniqueSchema('blobs');
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  afterAll(async () => {
    await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await pool.end();
  });

  defineBlobContract({ name: 'postgres bytea (server)', createStore: () => createPostgresBlobStore({ pool, schema, chunkBytes: 64 * 1024 }) });

  it('an upload cut halfway stores nothing and leaves no connection busy', async () => {
    const store = createPostgresBlobStore({ pool, schema, chunkBytes: 64 * 1024 });
    async function* cutUpload(): AsyncGenerator<Uint8Array> {
      for (let i = 0; i < 8; i++) yield new Uint8Array(randomBytes(64 * 1024)); // several chunk rows written
      throw new Error('socket closed');
    }
    await expect(store.put('halfway', cutUpload())).rejects.toThrow('socket closed');
    const { rows } = await pool.query(`SELECT count(*)::int AS n FROM "${schema}"."chatwire_blobs" WHERE key = 'halfway'`);
    expect(rows[0].n).toBe(0);
    expect(pool.waitingCount).toBe(0);
    expect(pool.idleCount).toBe(pool.totalCount);
    const busy = await pool.query(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND state LIKE 'idle in transaction%'`,
    );
    expect(busy.rows[0].n).toBe(0);
    // Both connections of the pool still serve.
    await Promise.all([store.put('after1', (async function* () { yield new Uint8Array([1]); })()), store.get('after1')]);
    expect(Array.from((await store.get('after1'))!)).toEqual([1]);
  });
});
