import type { Pool } from 'pg';
import { ChatwireError, type BlobStore, type StoreDriver } from '@chatwire/storage';
import { createPgPoolExecutor } from './create-pg-pool-executor.js';
import { createPostgresExecutor, type PostgresConnectionOptions } from './create-postgres-executor.js';
import { createSqlBlobStore } from './create-sql-blob-store.js';
import { executorOf } from './sql-blob-links.js';

export interface PostgresBlobStoreOptions extends PostgresConnectionOptions {
  /**
   * The record store's PostgreSQL driver (`createPostgresDriver`, `createPgliteDriver`): the bytes live in its
   * database, in its schema with its table prefix (`<prefix>blobs`) unless `schema`/`tablePrefix` say otherwise,
   * and an upload's bytes commit in the same transaction as its row. Never closed here.
   */
  driver?: StoreDriver;
  /** The `pg` pool of the record store's driver, so rows and bytes live in one database and transactions (never ended here). */
  pool?: Pool;
  schema?: string;
  tablePrefix?: string;
  /** Bytes per stored row (default 256 KiB). */
  chunkBytes?: number;
}

/**
 * Attachment bytes in PostgreSQL (`bytea`), over the record driver's connections (`driver`), a pool you own
 * (`pool`), or one made from `connectionString` (then rows and bytes commit separately).
 */
export function createPostgresBlobStore(options: PostgresBlobStoreOptions): BlobStore {
  let executor;
  let owned = true;
  let place: { schema?: string; tablePrefix?: string } = {};
  if (options.driver) {
    const link = executorOf(options.driver);
    if (!link) throw new ChatwireError('CONFIGURATION', `createPostgresBlobStore: driver "${options.driver.name}" is not a chatwire PostgreSQL driver`);
    executor = link.executor;
    place = { schema: link.schema, tablePrefix: link.tablePrefix };
    owned = false;
  } else if (options.pool) executor = createPgPoolExecutor(options.pool, { owned: false, onError: options.onError });
  else executor = createPostgresExecutor(options);
  return createSqlBlobStore({
    executor,
    ownsExecutor: owned,
    ...place,
    ...(options.schema === undefined ? {} : { schema: options.schema }),
    ...(options.tablePrefix === undefined ? {} : { tablePrefix: options.tablePrefix }),
    ...(options.chunkBytes === undefined ? {} : { chunkBytes: options.chunkBytes }),
  });
}
