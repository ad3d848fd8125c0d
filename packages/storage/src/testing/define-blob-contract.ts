import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BlobStore } from '../blobs/blob-store.js';

export interface BlobContractOptions {
  name: string;
  createStore(): BlobStore | Promise<BlobStore>;
  /** Default: `store.close?.()`. */
  cleanup?(store: BlobStore): Promise<void>;
}

const key = () => `k${randomUUID().replaceAll('-', '')}`;

async function* chunksOf(bytes: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let offset = 0; offset < bytes.byteLength; offset += size) yield bytes.subarray(offset, offset + size);
}

/** An upload that sends `bytes` then fails, as a client cut halfway does. */
async function* cutAfter(bytes: Uint8Array, error: Error): AsyncGenerator<Uint8Array> {
  yield* chunksOf(bytes, 64 * 1024);
  await new Promise((resolve) => setTimeout(resolve, 5));
  throw error;
}

/**
 * Declares the blob store contract suite: every `BlobStore` driver runs it from its own test file.
 *
 * ```ts
 * defineBlobContract({ name: 'memory', createStore: () => createMemoryBlobStore() });
 * ```
 */
export function defineBlobContract(options: BlobContractOptions): void {
  describe(`blob contract: ${options.name}`, () => {
    let store: BlobStore | undefined;
    beforeAll(async () => {
      store = await options.createStore();
    });
    afterAll(async () => {
      if (!store) return;
      if (options.cleanup) await options.cleanup(store);
      else await store.close?.();
    });
    const s = () => store!;

    it('stores and answers the exact bytes, whatever the chunking', async () => {
      const bytes = new Uint8Array(randomBytes(3 * 1024 * 1024 + 17));
      const k = key();
      expect(await s().put(k, chunksOf(bytes, 100_003))).toEqual({ size: bytes.byteLength });
      const read = await s().get(k);
      expect(read).not.toBeNull();
      expect(Buffer.from(read!).equals(Buffer.from(bytes))).toBe(true);
    });

    it('stores an empty blob and every byte value', async () => {
      const k = key();
      expect(await s().put(k, chunksOf(new Uint8Array(0), 1))).toEqual({ size: 0 });
      expect(Array.from((await s().get(k))!)).toEqual([]);
      const all = Uint8Array.from({ length: 256 }, (_, i) => i);
      const k2 = key();
      await s().put(k2, chunksOf(all, 7));
      expect(Array.from((await s().get(k2))!)).toEqual(Array.from(all));
    });

    it('keeps its own copy: changing the chunks (Buffers too) or the answer afterwards changes nothing stored', async () => {
      const k = key();
      const chunks = [Buffer.from([1, 2, 3]), new Uint8Array([4, 5])];
      await s().put(k, (async function* () {
        yield* chunks;
      })());
      chunks[0]!.fill(9);
      chunks[1]!.fill(9);
      const read = (await s().get(k))!;
      expect(Array.from(read)).toEqual([1, 2, 3, 4, 5]);
      read.fill(0);
      expect(Array.from((await s().get(k))!)).toEqual([1, 2, 3, 4, 5]);
    });

    it('answers null for a missing key', async () => {
      expect(await s().get(key())).toBeNull();
    });

    it('deletes: true once, then false; the bytes are gone', async () => {
      const k = key();
      await s().put(k, chunksOf(new Uint8Array([1, 2, 3]), 2));
      expect(await s().delete(k)).toBe(true);
      expect(await s().get(k)).toBeNull();
      expect(await s().delete(k)).toBe(false);
    });

    it('a second put of a key replaces its bytes', async () => {
      const k = key();
      await s().put(k, chunksOf(new Uint8Array([1, 2, 3, 4, 5]), 2));
      await s().put(k, chunksOf(new Uint8Array([9]), 1));
      expect(Array.from((await s().get(k))!)).toEqual([9]);
    });

    it('an upload that fails halfway stores nothing and rethrows its error', async () => {
      const k = key();
      const cut = new Error('client went away');
      await expect(s().put(k, cutAfter(new Uint8Array(randomBytes(300_000)), cut))).rejects.toBe(cut);
      expect(await s().get(k)).toBeNull();
      // The store still works afterwards.
      const k2 = key();
      await s().put(k2, chunksOf(new Uint8Array([7]), 1));
      expect(Array.from((await s().get(k2))!)).toEqual([7]);
    });

    it('a failed replacement keeps the old bytes', async () => {
      const k = key();
      await s().put(k, chunksOf(new Uint8Array([1, 2]), 1));
      await expect(s().put(k, cutAfter(new Uint8Array(10), new Error('cut')))).rejects.toThrow('cut');
      expect(Array.from((await s().get(k))!)).toEqual([1, 2]);
    });

    it('keeps concurrent uploads apart', async () => {
      const blobs = Array.from({ length: 6 }, (_, i) => ({ k: key(), bytes: new Uint8Array(randomBytes(50_000 + i)) }));
      await Promise.all(blobs.map(({ k, bytes }) => s().put(k, chunksOf(bytes, 8192))));
      for (const { k, bytes } of blobs) expect(Buffer.from((await s().get(k))!).equals(Buffer.from(bytes))).toBe(true);
    });

    it('lists stored keys with when they were stored, not deleted ones (stores with `list`)', async () => {
      if (!s().list) return;
      const [kept, gone] = [key(), key()];
      const started = Date.now();
      await s().put(kept, chunksOf(new Uint8Array([1]), 1));
      await s().put(gone, chunksOf(new Uint8Array([2]), 1));
      await s().delete(gone);
      const listed = new Map<string, Date>();
      for await (const entry of s().list!()) listed.set(entry.key, entry.storedAt);
      expect(listed.has(gone)).toBe(false);
      const storedAt = listed.get(kept)!.getTime();
      // Some stores keep whole seconds (S3's LastModified).
      expect(storedAt).toBeGreaterThanOrEqual(Math.floor(started / 1000) * 1000 - 2000);
      expect(storedAt).toBeLessThanOrEqual(Date.now() + 2000);
    });

    it('refuses a key outside [A-Za-z0-9_-]{1,128}', async () => {
      await expect(s().put('../etc/passwd', chunksOf(new Uint8Array([1]), 1))).rejects.toThrow(/invalid key/);
      await expect(s().put('', chunksOf(new Uint8Array([1]), 1))).rejects.toThrow(/invalid key/);
    });
  });
}
