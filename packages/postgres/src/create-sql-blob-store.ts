import { checkBlobKey, concatBytes, type BlobStore } from '@chatwire/storage';
import type { SqlExecutor } from './sql-executor.js';
import { createTableNames } from './table-names.js';

export interface SqlBlobStoreOptions {
  executor: SqlExecutor;
  /** Schema of the blob table (created when missing). Default `public`. */
  schema?: string;
  /** Prefix of the table name: `<prefix>blobs`. Default `chatwire_`. */
  tablePrefix?: string;
  /** Bytes per stored row (default 256 KiB): what one upload holds in memory at most before writing. */
  chunkBytes?: number;
  /** `close()` closes the executor too (it was made for this store). */
  ownsExecutor?: boolean;
}

/**
 * Blobs in PostgreSQL `bytea`, one row per chunk of `chunkBytes` (`<prefix>blobs (key, seq, bytes)`).
 * A `put` writes its chunks as they arrive inside one transaction: an upload that fails halfway rolls back
 * (nothing stored) and its connection goes back to the pool. The upload holds one pooled connection while
 * it streams, and at most one chunk in memory.
 */
export function createSqlBlobStore(options: SqlBlobStoreOptions): BlobStore {
  const names = createTableNames(options.schema ?? 'public', options.tablePrefix ?? 'chatwire_');
  const table = `${names.schema}."${(options.tablePrefix ?? 'chatwire_')}blobs"`;
  const chunkBytes = options.chunkBytes ?? 256 * 1024;
  const { executor } = options;
  let ready: Promise<void> | undefined;
  const ensure = () =>
    (ready ??= (async () => {
      await executor.query(`CREATE SCHEMA IF NOT EXISTS ${names.schema}`);
      await executor.query(
        `CREATE TABLE IF NOT EXISTS ${table} (key text NOT NULL, seq integer NOT NULL, bytes bytea NOT NULL, PRIMARY KEY (key, seq))`,
      );
    })().catch((error: unknown) => {
      ready = undefined;
      throw error;
    }));

  return {
    name: 'postgres',
    async put(key, body) {
      checkBlobKey(key);
      await ensure();
      return executor.transaction(async (client) => {
        await client.query(`DELETE FROM ${table} WHERE key = $1`, [key]);
        let seq = 0;
        let size = 0;
        let pending: Uint8Array[] = [];
        let pendingBytes = 0;
        const flush = async () => {
          const bytes = concatBytes(pending, pendingBytes);
          pending = [];
          pendingBytes = 0;
          await client.query(`INSERT INTO ${table} (key, seq, bytes) VALUES ($1, $2, decode($3, 'base64'))`, [
            key,
            String(seq++),
            Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64'),
          ]);
        };
        for await (const chunk of body) {
          size += chunk.byteLength;
          pending.push(chunk.slice());
          pendingBytes += chunk.byteLength;
          if (pendingBytes >= chunkBytes) await flush();
        }
        if (pendingBytes > 0 || seq === 0) await flush();
        return { size };
      });
    },
    async get(key) {
      if (!/^[A-Za-z0-9_-]{1,128}$/.test(key)) return null;
      await ensure();
      const { rows } = await executor.query<{ b: string }>(
        `SELECT encode(bytes, 'base64') AS b FROM ${table} WHERE key = $1 ORDER BY seq`,
        [key],
      );
      if (rows.length === 0) return null;
      return concatBytes(rows.map((row) => new Uint8Array(Buffer.from(row.b, 'base64'))));
    },
    async delete(key) {
      await ensure();
      const { rowCount } = await executor.query(`DELETE FROM ${table} WHERE key = $1`, [key]);
      return rowCount > 0;
    },
    async close() {
      if (options.ownsExecutor) await executor.close();
    },
  };
}
