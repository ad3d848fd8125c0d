import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { defineBlobContract } from '@chatwire/storage/testing';
import S3rver from 's3rver';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createS3BlobStore } from './create-s3-blob-store.js';

// A local S3-compatible server (s3rver) on a loopback port, its objects in a temporary folder.
let server: S3rver;
let directory: string;
let client: S3Client;
const bucket = 'chatwire-test';

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'chatwire-s3-'));
  server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket, configs: [] }] });
  const { port } = await server.run();
  client = new S3Client({
    endpoint: `http://127.0.0.1:${port}`,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
});

afterAll(async () => {
  client?.destroy();
  await server?.close();
  await rm(directory, { recursive: true, force: true });
});

defineBlobContract({ name: 's3 (s3rver)', createStore: () => createS3BlobStore({ client, bucket, prefix: 'contract/' }) });

it('a multipart upload (over one part) round-trips, and one cut halfway leaves no object', async () => {
  const store = createS3BlobStore({ client, bucket, prefix: 'multi/' });
  const bytes = new Uint8Array(randomBytes(11 * 1024 * 1024 + 5));
  async function* chunks(cut: boolean): AsyncGenerator<Uint8Array> {
    for (let offset = 0; offset < bytes.byteLength; offset += 1 << 20) {
      if (cut && offset > 6 * 1024 * 1024) throw new Error('cut');
      yield bytes.subarray(offset, offset + (1 << 20));
    }
  }
  expect(await store.put('big', chunks(false))).toEqual({ size: bytes.byteLength });
  expect(Buffer.from((await store.get('big'))!).equals(Buffer.from(bytes))).toBe(true);
  await expect(store.put('cut', chunks(true))).rejects.toThrow('cut');
  expect(await store.get('cut')).toBeNull();
  const listed = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: 'multi/' }));
  expect((listed.Contents ?? []).map((object) => object.Key)).toEqual(['multi/big']);
});
