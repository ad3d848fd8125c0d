import type { Pool } from 'pg';
import { createPgPoolExecutor } from './create-pg-pool-executor.js';
import { createPostgresExecutor, type PostgresConnectionOptions } from './create-postgres-executor.js';
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

export interface PostgresDriverOptions extends PostgresTableOptions, PostgresConnectionOptions {
  /** A `pg` pool you own (the driver never ends it). Otherwise give `connectionString`. */
  pool?: Pool;
}

/**
 * The PostgreSQL record-store driver over `pg`. Tables and indexes are created on first use.
 * `close()` ends the pool only when the driver created it from `connectionString`.
 */
export function createPostgresDriver(options: PostgresDriverOptions): SqlDriver {
  const tables = createTableNames(options.schema ?? 'public', options.tablePrefix ?? 'chatwire_');
  const executor = options.pool
    ? createPgPoolExecutor(options.pool, { owned: false, onError: options.onError })
    : createPostgresExecutor(options);
  return createSqlDriver({
    name: 'postgres',
    executor,
    tables,
    ...(options.onError ? { onError: options.onError } : {}),
    ...(options.generateId ? { generateId: options.generateId } : {}),
  });
}
