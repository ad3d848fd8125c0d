import pg from 'pg';
import type { Pool } from 'pg';
import { ChatwireError } from '@chatwire/storage';
import { createPgPoolExecutor } from './create-pg-pool-executor.js';
import { createSqlDriver, type SqlDriver } from './create-sql-driver.js';
import { createTableNames } from './table-names.js';

export interface PostgresTableOptions {
  /** Schema holding the tables (created when missing). Default `public`. */
  schema?: string;
  /** Prefix of the table names: `<prefix>records`, `<prefix>leases`. Default `chatwire_`. */
  tablePrefix?: string;
  /** Record id generator for inserts without one (default `crypto.randomUUID`). */
  generateId?: () => string;
}

export interface PostgresDriverOptions extends PostgresTableOptions {
  /** A `pg` pool you own (the driver never ends it). */
  pool?: Pool;
  /** Or a connection string, e.g. `process.env.DATABASE_URL`; the driver then owns its pool. */
  connectionString?: string;
  /** Size of the pool the driver creates from `connectionString`. Default 10. */
  max?: number;
  /** Errors of idle pooled connections (the database restarted...). Without it they are ignored. */
  onError?: (error: Error) => void;
}

/**
 * The PostgreSQL record-store driver over `pg`. Tables and indexes are created on first use.
 * `close()` ends the pool only when the driver created it.
 */
export function createPostgresDriver(options: PostgresDriverOptions): SqlDriver {
  const tables = createTableNames(options.schema ?? 'public', options.tablePrefix ?? 'chatwire_');
  let pool = options.pool;
  const owned = pool === undefined;
  if (pool === undefined) {
    if (typeof options.connectionString !== 'string' || options.connectionString === '') {
      throw new ChatwireError(
        'CONFIGURATION',
        'createPostgresDriver needs `pool` or `connectionString` (is DATABASE_URL set?)',
        { details: { option: 'connectionString' } },
      );
    }
    pool = new pg.Pool({ connectionString: options.connectionString, max: options.max ?? 10 });
    // An idle client's error is emitted on the pool; unhandled it would crash the process.
    pool.on('error', (error) => options.onError?.(error));
  }
  return createSqlDriver({
    name: 'postgres',
    executor: createPgPoolExecutor(pool, { owned }),
    tables,
    ...(options.generateId ? { generateId: options.generateId } : {}),
  });
}
