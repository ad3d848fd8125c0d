import { checkBlobKey, concatBytes, type BlobStore } from './blob-store.js';

/** Blobs in this process's memory (the default; gone on restart). `get` answers copies. */
export function createMemoryBlobStore(): BlobStore & { readonly size: number } {
  const blobs = new Map<string, Uint8Array>();
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
      blobs.set(key, concatBytes(chunks, size));
      return { size };
    },
    async get(key) {
      const bytes = blobs.get(key);
      return bytes ? bytes.slice() : null;
    },
    async delete(key) {
      return blobs.delete(key);
    },
  };
}
