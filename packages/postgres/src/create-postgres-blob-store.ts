import type { Pool } from 'pg';
import type { BlobStore } from '@chatwire/storage';
import { createPgPoolExecutor } from './create-pg-pool-executor.js';
import { createPostgresExecutor, type PostgresConnectionOptions } from './create-postgres-executor.js';
import { createSqlBlobStore } from './create-sql-blob-store.js';

export interface PostgresBlobStoreOptions extends PostgresConnectionOptions {
  /** The `pg` pool of the record store's driver, so rows and bytes live in one database (never ended here). */
  pool?: Pool;
  schema?: string;
  tablePrefix?: string;
  /** Bytes per stored row (default 256 KiB). */
  chunkBytes?: number;
}

/** Attachment bytes in PostgreSQL (`bytea`), over a pool you own or one made from `connectionString`. */
export function createPostgresBlobStore(options: PostgresBlobStoreOptions): BlobStore {
  const executor = options.pool
    ? createPgPoolExecutor(options.pool, { owned: false, onError: options.onError })
    : createPostgresExecutor(options);
  return createSqlBlobStore({
    executor,
    ownsExecutor: true,
    ...(options.schema === undefined ? {} : { schema: options.schema }),
    ...(options.tablePrefix === undefined ? {} : { tablePrefix: options.tablePrefix }),
    ...(options.chunkBytes === undefined ? {} : { chunkBytes: options.chunkBytes }),
  });
}
