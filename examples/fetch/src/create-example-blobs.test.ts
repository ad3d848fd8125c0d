import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExampleApp, type ExampleApp } from './create-example-app.js';
import { createNodeServer } from './create-node-server.js';
import { listenNode } from './listen-node.js';
import type { RunningServer } from './run-example.js';

// The example with CHATWIRE_S3_* set: attachment bytes go to a local S3-compatible server (s3rver), and an
// upload and its download go through HTTP.
const bucket = 'chatwire-example';

describe('example app with attachments in S3 (s3rver)', () => {
  let s3: S3rver;
  let directory: string;
  let endpoint: string;
  let app: ExampleApp;
  let server: RunningServer;
  let base: string;

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'chatwire-example-s3-'));
    s3 = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket, configs: [] }] });
    endpoint = `http://127.0.0.1:${(await s3.run()).port}`;
    app = await createExampleApp(
      {
        PORT: '0',
        CHATWIRE_S3_BUCKET: bucket,
        CHATWIRE_S3_ENDPOINT: endpoint,
        CHATWIRE_S3_REGION: 'us-east-1',
        CHATWIRE_S3_PREFIX: 'attachments/',
        AWS_ACCESS_KEY_ID: 'S3RVER',
        AWS_SECRET_ACCESS_KEY: 'S3RVER',
      },
      { demoChunkDelayMs: 0, onError: () => undefined },
    );
    server = await listenNode(createNodeServer(app), 0);
    base = `http://127.0.0.1:${server.port}`;
  });

  afterAll(async () => {
    await server?.close();
    await app?.close();
    await s3?.close();
    await rm(directory, { recursive: true, force: true });
  });

  it('says where the bytes go, stores an upload in the bucket and serves it back', async () => {
    expect(app.notices.join('\n')).toContain(`attachments: s3 bucket ${bucket}`);
    const { token } = (await (await fetch(`${base}/dev/sign-in`, { method: 'POST', body: JSON.stringify({ name: 'Sam' }) })).json()) as { token: string };
    const text = 'Bytes kept in S3.\n';
    const upload = await fetch(`${base}/api/ai/attachments?filename=note.txt`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'text/plain' },
      body: text,
    });
    expect(upload.status).toBe(201);
    const { attachment } = (await upload.json()) as { attachment: { attachmentId: string; size: number; url: string } };
    expect(attachment.size).toBe(text.length);

    const client = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
    const listed = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: 'attachments/' }));
    client.destroy();
    expect((listed.Contents ?? []).map((object) => object.Key)).toEqual([expect.stringMatching(new RegExp(`^attachments/${attachment.attachmentId}`))]);

    const content = await fetch(`${base}${attachment.url}`); // the signed URL, no header
    expect(content.status).toBe(200);
    expect(await content.text()).toBe(text);
  });
});
