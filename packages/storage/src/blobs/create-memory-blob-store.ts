import { checkBlobKey, concatBytes, type BlobStore } from './blob-store.js';

/**
 * Blobs in this process's memory (the default; gone on restart). A blob is kept as the copies of the chunks
 * it arrived in (one copy per byte on `put`); `get` joins them into a fresh array, so callers never share
 * stored memory.
 */
export function createMemoryBlobStore(options: { now?: () => number } = {}): BlobStore & { readonly size: number } {
  const now = options.now ?? Date.now;
  const blobs = new Map<string, { chunks: Uint8Array[]; size: number; storedAt: number }>();
  return {
    name: 'memory',
    get size() {
      return blobs.size;
    },
    async put(key, body) {
      checkBlobKey(key);
      const chunks: Uint8Array[] = [];
      let size = 0;
      for await (const chunk of body) {
        chunks.push(new Uint8Array(chunk)); // a copy, Buffers too (their slice() is a view)
        size += chunk.byteLength;
      }
      blobs.set(key, { chunks, size, storedAt: now() });
      return { size };
    },
    async get(key) {
      const blob = blobs.get(key);
      return blob ? concatBytes(blob.chunks, blob.size) : null;
    },
    async delete(key) {
      return blobs.delete(key);
    },
    async *list() {
      for (const [key, blob] of [...blobs]) yield { key, storedAt: new Date(blob.storedAt) };
    },
  };
}
