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
 */
export interface BlobStore {
  readonly name: string;
  put(key: string, body: AsyncIterable<Uint8Array>): Promise<{ size: number }>;
  get(key: string): Promise<Uint8Array | null>;
  delete(key: string): Promise<boolean>;
  /** Releases what the store opened itself (a pool it created); a pool or client you passed stays open. */
  close?(): Promise<void>;
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
