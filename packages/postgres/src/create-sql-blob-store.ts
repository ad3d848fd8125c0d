import { accessDriver, checkBlobKey, concatBytes, type BlobStore, type TransactionBlobs } from '@chatwire/storage';
import type { SqlClient, SqlExecutor } from './sql-executor.js';
import { transactionLink } from './sql-blob-links.js';
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

const KEY = /^[A-Za-z0-9_-]{1,128}$/;

/**
 * Blobs in PostgreSQL `bytea`, one row per chunk of `chunkBytes` (`<prefix>blobs (key, seq, bytes, stored_at)`),
 * the bytes sent and read as binary parameters (no text encoding). A `put` writes its chunks as they arrive
 * inside one transaction: an upload that fails halfway rolls back (nothing stored) and its connection goes
 * back to the pool. The upload holds one pooled connection while it streams, and at most one chunk in memory.
 *
 * `joinTransaction(tx)` answers writes inside a record transaction when the record driver runs on the same
 * database handle (the same `pg.Pool` or PGlite instance): the bytes then commit or roll back with the rows.
 */
export function createSqlBlobStore(options: SqlBlobStoreOptions): BlobStore {
  const names = createTableNames(options.schema ?? 'public', options.tablePrefix ?? 'chatwire_');
  const tableName = `${options.tablePrefix ?? 'chatwire_'}blobs`;
  const table = `${names.schema}."${tableName}"`;
  const chunkBytes = options.chunkBytes ?? 256 * 1024;
  const { executor } = options;
  // `stored_at` came after the first release: added when missing, without locking a table that has it.
  const createSql = [
    `CREATE SCHEMA IF NOT EXISTS ${names.schema}`,
    `CREATE TABLE IF NOT EXISTS ${table} (key text NOT NULL, seq integer NOT NULL, bytes bytea NOT NULL, stored_at timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (key, seq))`,
  ];
  const addStoredAt = `ALTER TABLE ${table} ADD COLUMN IF NOT EXISTS stored_at timestamptz NOT NULL DEFAULT now()`;
  const state = `SELECT to_regclass($1) IS NOT NULL AS found, EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = to_regclass($1) AND attname = 'stored_at' AND NOT attisdropped) AS current`;
  let ready: Promise<void> | undefined;
  let known = false;
  const ensure = () =>
    (ready ??= (async () => {
      const { rows } = await executor.query<{ found: boolean; current: boolean }>(state, [table]);
      if (!rows[0]?.found) for (const text of createSql) await executor.query(text);
      else if (!rows[0].current) await executor.query(addStoredAt);
      known = true;
    })().catch((error: unknown) => {
      ready = undefined;
      throw error;
    }));
  /** Inside someone else's transaction: create the table there if it is missing (serialized by a lock). */
  async function ensureIn(client: SqlClient): Promise<void> {
    if (known) return;
    const { rows } = await client.query<{ found: boolean; current: boolean }>(state, [table]);
    if (rows[0]?.current) {
      known = true; // visible here, so committed by someone: it stays
      return;
    }
    await client.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [table]);
    for (const text of [...createSql, addStoredAt]) await client.query(text);
  }

  async function write(client: SqlClient, key: string, body: AsyncIterable<Uint8Array>): Promise<{ size: number }> {
    await client.query(`DELETE FROM ${table} WHERE key = $1`, [key]);
    let seq = 0;
    let size = 0;
    let pending: Uint8Array[] = [];
    let pendingBytes = 0;
    const flush = async () => {
      const bytes = concatBytes(pending, pendingBytes);
      pending = [];
      pendingBytes = 0;
      await client.query(`INSERT INTO ${table} (key, seq, bytes) VALUES ($1, $2, $3)`, [key, String(seq++), bytes]);
    };
    for await (const chunk of body) {
      size += chunk.byteLength;
      pending.push(chunk.slice());
      pendingBytes += chunk.byteLength;
      if (pendingBytes >= chunkBytes) await flush();
    }
    if (pendingBytes > 0 || seq === 0) await flush();
    return { size };
  }

  const remove = async (client: SqlClient, key: string) => (await client.query(`DELETE FROM ${table} WHERE key = $1`, [key])).rowCount > 0;

  return {
    name: 'postgres',
    async put(key, body) {
      checkBlobKey(key);
      await ensure();
      return executor.transaction((client) => write(client, key, body));
    },
    async get(key) {
      if (!KEY.test(key)) return null;
      await ensure();
      const { rows } = await executor.query<{ bytes: Uint8Array }>(`SELECT bytes FROM ${table} WHERE key = $1 ORDER BY seq`, [key]);
      if (rows.length === 0) return null;
      if (rows.length === 1) return rows[0]!.bytes;
      return concatBytes(rows.map((row) => row.bytes));
    },
    async delete(key) {
      if (!KEY.test(key)) return false;
      await ensure();
      return remove(executor, key);
    },
    joinTransaction(tx): TransactionBlobs | null {
      const driver = accessDriver(tx);
      const link = driver ? transactionLink(driver) : undefined;
      if (!link || link.database === undefined || link.database !== executor.database) return null;
      return {
        async put(key, body) {
          checkBlobKey(key);
          await ensureIn(link);
          return write(link, key, body);
        },
        async delete(key) {
          if (!KEY.test(key)) return false;
          await ensureIn(link);
          return remove(link, key);
        },
      };
    },
    async *list() {
      await ensure();
      const { rows } = await executor.query<{ key: string; stored_at: Date | string }>(`SELECT key, stored_at FROM ${table} WHERE seq = 0`);
      for (const row of rows) yield { key: row.key, storedAt: new Date(row.stored_at) };
    },
    async close() {
      if (options.ownsExecutor) await executor.close();
    },
  };
}
