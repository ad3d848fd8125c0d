import { checkBlobKey, concatBytes, type BlobStore } from './blob-store.js';

/** Blobs in this process's memory (the default; gone on restart). `get` answers copies. */
export function createMemoryBlobStore(options: { now?: () => number } = {}): BlobStore & { readonly size: number } {
  const now = options.now ?? Date.now;
  const blobs = new Map<string, { bytes: Uint8Array; storedAt: number }>();
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
        chunks.push(chunk.slice());
        size += chunk.byteLength;
      }
      blobs.set(key, { bytes: concatBytes(chunks, size), storedAt: now() });
      return { size };
    },
    async get(key) {
      const blob = blobs.get(key);
      return blob ? blob.bytes.slice() : null;
    },
    async delete(key) {
      return blobs.delete(key);
    },
    async *list() {
      for (const [key, blob] of [...blobs]) yield { key, storedAt: new Date(blob.storedAt) };
    },
  };
}
