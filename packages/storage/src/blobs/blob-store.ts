import type { RecordAccess } from '../record-access.js';

/**
 * Where attachment bytes live. Keys are opaque server-made ids (`[A-Za-z0-9_-]`, at most 128 characters);
 * what the bytes are, who owns them and which message uses them is kept in records, never here. Every
 * driver runs `defineBlobContract` from `@chatwire/storage/testing`.
 *
 * - `put` consumes `body` as it arrives (a driver never needs the whole upload in memory at once beyond
 *   its own write buffer) and is atomic: when `body` throws or the write fails, nothing is stored under
 *   `key` and the error is rethrown as it was. A second `put` of the same key replaces the bytes.
 * - `get` answers the exact bytes stored, or null.
 * - `delete` answers whether something was deleted; deleting a missing key is `false`, never an error.
 *
 * Rows and bytes together: a store that lives in the record store's own database (PostgreSQL built with the
 * record driver, or over the same `pg` pool) offers `joinTransaction`, and chatwire then writes an upload's
 * bytes and its row in one transaction, and deletes a chat's bytes in the transaction deleting its rows:
 * either both commit or neither does. Other stores (memory, S3) cannot join: the bytes are written before
 * the row (and deleted again when the row fails) and deleted after the rows' transaction commits, so a crash
 * in between can leave bytes without a row; `list` lets the sweep find and delete those.
 */
export interface BlobStore {
  readonly name: string;
  put(key: string, body: AsyncIterable<Uint8Array>): Promise<{ size: number }>;
  get(key: string): Promise<Uint8Array | null>;
  delete(key: string): Promise<boolean>;
  /**
   * Writes bound to the record transaction `tx` runs in (commit and roll back with its rows), or null when
   * `tx` is not a transaction of this store's database. Absent: the store never joins (see above).
   */
  joinTransaction?(tx: RecordAccess): TransactionBlobs | null;
  /** Every stored key with when it was stored, in no particular order (for the orphan sweep). */
  list?(): AsyncIterable<{ key: string; storedAt: Date }>;
  /** Releases what the store opened itself (a pool it created); a pool or client you passed stays open. */
  close?(): Promise<void>;
}

/** `put` and `delete` of a `BlobStore`, inside one record transaction (`BlobStore.joinTransaction`). */
export interface TransactionBlobs {
  put(key: string, body: AsyncIterable<Uint8Array>): Promise<{ size: number }>;
  delete(key: string): Promise<boolean>;
}

/** The keys every driver accepts. */
export const BLOB_KEY_PATTERN = /^[A-Za-z0-9_-]{1,128}$/;

/** Throws a plain Error for a key outside `BLOB_KEY_PATTERN` (keys come from the server, never from input). */
export function checkBlobKey(key: string): void {
  if (!BLOB_KEY_PATTERN.test(key)) throw new Error(`blob store: invalid key ${JSON.stringify(key.slice(0, 40))}`);
}

/** Joins chunks into one array. */
export function concatBytes(chunks: readonly Uint8Array[], size?: number): Uint8Array {
  const total = size ?? chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0);
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
