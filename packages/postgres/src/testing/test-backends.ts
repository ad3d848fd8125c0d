import { PGlite } from '@electric-sql/pglite';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import pg from 'pg';
import { createPgliteDriver } from '../create-pglite-driver.js';
import { createPostgresDriver } from '../create-postgres-driver.js';
import type { SqlDriver } from '../create-sql-driver.js';
import type { SqlClient, SqlExecutor } from '../sql-executor.js';
import { createPgliteExecutor } from '../create-pglite-executor.js';
import { createPgPoolExecutor } from '../create-pg-pool-executor.js';

/** Test support (not exported): the PostgreSQL server from CHATWIRE_TEST_DATABASE_URL and an in-process PGlite. */
export const databaseUrl = process.env.CHATWIRE_TEST_DATABASE_URL || undefined;
export const SERVER_SKIP_REASON = '(skipped: CHATWIRE_TEST_DATABASE_URL not set)';

let counter = 0;
/** A schema name unique to this test run. */
export function uniqueSchema(tag: string): string {
  return `cw_${tag}_${process.pid}_${Date.now().toString(36)}_${counter++}`;
}

let pglite: Promise<PGlite> | null = null;
/** One PGlite per worker (the project runs with `isolate: false`): starting one costs seconds. */
export function sharedPglite(): Promise<PGlite> {
  // With `unaccent`, as a PGlite app should load it for search to ignore accents (see search-schema.ts).
  pglite ??= PGlite.create({ extensions: { unaccent } });
  return pglite;
}

export interface OpenedBackend {
  driver: SqlDriver;
  /** Raw SQL on the same database, outside the driver. */
  sql: SqlClient;
  /** An executor on the same database, to build drivers with `createSqlDriver` (e.g. to record statements). */
  executor: SqlExecutor;
  schema: string;
  /** Opens a second, independent driver on the same schema (for the server: over its own pool). */
  openPeer(): Promise<SqlDriver>;
  cleanup(): Promise<void>;
}

export interface Backend {
  name: string;
  /** Title suffix explaining a skip, or '' when the backend runs. */
  skipReason: string;
  open(tag: string): Promise<OpenedBackend>;
}

const pgliteSql = (db: PGlite): SqlClient => ({
  query: async <R extends object>(text: string, params?: readonly (string | null)[]) => {
    const result = await db.query<R>(text, params ? [...params] : []);
    return { rows: result.rows, rowCount: result.affectedRows ?? 0 };
  },
});

export const pgliteBackend: Backend = {
  name: 'pglite',
  skipReason: '',
  async open(tag) {
    const db = await sharedPglite();
    const schema = uniqueSchema(tag);
    const sql = pgliteSql(db);
    return {
      driver: createPgliteDriver(db, { schema }),
      sql,
      executor: createPgliteExecutor(db),
      schema,
      openPeer: async () => createPgliteDriver(db, { schema }),
      async cleanup() {
        await db.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      },
    };
  },
};

export const serverBackend: Backend = {
  name: 'postgres server',
  skipReason: databaseUrl ? '' : SERVER_SKIP_REASON,
  async open(tag) {
    const schema = uniqueSchema(tag);
    const pools: pg.Pool[] = [];
    const newPool = () => {
      const pool = new pg.Pool({ connectionString: databaseUrl, max: 4 });
      pools.push(pool);
      return pool;
    };
    const admin = newPool();
    const sql: SqlClient = {
      query: async <R extends object>(text: string, params?: readonly (string | null)[]) => {
        const result = await admin.query<R>(text, params ? [...params] : []);
        return { rows: result.rows, rowCount: result.rowCount ?? 0 };
      },
    };
    return {
      driver: createPostgresDriver({ pool: newPool(), schema }),
      sql,
      executor: createPgPoolExecutor(admin, { owned: false }),
      schema,
      openPeer: async () => createPostgresDriver({ pool: newPool(), schema }),
      async cleanup() {
        await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await Promise.all(pools.map((pool) => pool.end()));
      },
    };
  },
};

export const backends: Backend[] = [pgliteBackend, serverBackend];
