import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createUploadHash } from './off-thread-hash.js';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** Feeds `bytes` in chunks of the given sizes (cycled), awaiting the hash whenever it asks to wait. */
async function hashInChunks(bytes: Uint8Array, sizes: number[]): Promise<{ hex: string; waits: number }> {
  const hash = createUploadHash();
  let waits = 0;
  for (let offset = 0, i = 0; offset < bytes.byteLength; i++) {
    const n = sizes[i % sizes.length]!;
    const wait = hash.update(bytes.subarray(offset, offset + n));
    offset += n;
    if (wait) {
      waits++;
      await wait;
    }
  }
  return { hex: await hash.digest(), waits };
}

describe('createUploadHash', () => {
  it('gives the SHA-256 of the bytes, whatever their chunking, small uploads and large', async () => {
    for (const size of [0, 1, 4100, 256 * 1024 - 1, 256 * 1024, 256 * 1024 + 1, 3 * 1024 * 1024 + 17]) {
      const bytes = randomBytes(size);
      for (const sizes of [[1 + (size >> 4)], [65536], [7, 300000, 1], [size || 1]]) {
        expect((await hashInChunks(bytes, sizes)).hex, `${size} bytes in chunks of ${sizes.join('/')}`).toBe(sha256(bytes));
      }
    }
  });

  it('copies what it is given: the caller may reuse its buffer right after update', async () => {
    const buffer = Buffer.alloc(100 * 1024);
    const all: Buffer[] = [];
    const hash = createUploadHash();
    for (let i = 0; i < 40; i++) {
      buffer.fill(i);
      all.push(Buffer.from(buffer));
      const wait = hash.update(buffer);
      if (wait) await wait;
    }
    expect(await hash.digest()).toBe(sha256(Buffer.concat(all)));
  });

  it('asks the caller to wait when more than two batches are on their way, and many uploads hash at once', async () => {
    const uploads = Array.from({ length: 8 }, () => randomBytes(4 * 1024 * 1024));
    const results = await Promise.all(uploads.map((bytes) => hashInChunks(bytes, [1024 * 1024])));
    results.forEach((result, i) => expect(result.hex).toBe(sha256(uploads[i]!)));
    // A 1 MiB update is four batches, past the two allowed in flight: every one of them waits.
    expect(results.every((result) => result.waits >= 3)).toBe(true);
  });

  it('an upload disposed halfway leaves the others intact', async () => {
    const dropped = createUploadHash();
    dropped.update(randomBytes(600 * 1024));
    const bytes = randomBytes(900 * 1024);
    const kept = hashInChunks(bytes, [100 * 1024]);
    dropped.dispose();
    expect((await kept).hex).toBe(sha256(bytes));
  });
});
