import pg from 'pg';
import { ChatwireError } from '@chatwire/storage';
import { createPgPoolExecutor } from './create-pg-pool-executor.js';
import type { SqlExecutor } from './sql-executor.js';

export interface PostgresConnectionOptions {
  /** e.g. `process.env.DATABASE_URL`. */
  connectionString?: string | undefined;
  /** Pool size. Default 10. */
  max?: number;
  /** Errors of idle pooled connections (the database restarted...). Without it they are ignored. */
  onError?: (error: Error) => void;
}

/**
 * A `pg.Pool` from a connection string, as a SqlExecutor that owns it (`close()` ends the pool).
 * What `createPostgresDriver({ connectionString })` uses; also handy for raw SQL next to the driver.
 */
export function createPostgresExecutor(options: PostgresConnectionOptions): SqlExecutor {
  if (typeof options.connectionString !== 'string' || options.connectionString === '') {
    throw new ChatwireError('CONFIGURATION', 'createPostgresDriver needs `pool` or `connectionString` (is DATABASE_URL set?)', {
      details: { option: 'connectionString' },
    });
  }
  const pool = new pg.Pool({ connectionString: options.connectionString, max: options.max ?? 10 });
  // An idle client's error is emitted on the pool; unhandled it would crash the process.
  pool.on('error', (error) => options.onError?.(error));
  return createPgPoolExecutor(pool, { owned: true });
}
