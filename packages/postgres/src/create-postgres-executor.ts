import pg from 'pg';
import { ChatwireError } from '@chatwire/storage';
import { createPgPoolExecutor } from './create-pg-pool-executor.js';
import type { SqlExecutor } from './sql-executor.js';

export interface PostgresConnectionOptions {
  /** e.g. `process.env.DATABASE_URL`. */
  connectionString?: string | undefined;
  /** Pool size. Default 10. */
  max?: number;
  /**
   * Connection errors no statement reports: idle pooled connections, a transaction's connection lost
   * between two statements, the notification connection (the database restarted...). Default: ignored.
   * They never crash the process either way.
   */
  onError?: ((error: unknown) => void) | undefined;
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
  return createPgPoolExecutor(pool, { owned: true, onError: options.onError });
}
