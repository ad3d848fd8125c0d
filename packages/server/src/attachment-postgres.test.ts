import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { createModelRegistry } from '@chatwire/core';
import { createPostgresBlobStore, createPostgresDriver } from '@chatwire/postgres';
import { createRecordStore } from '@chatwire/storage';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toNodeListener } from './adapters/node.js';
import { createChatHandler } from './create-chat-handler.js';
import { readSse, SECRET, signToken } from './test-support/chat-fixture.js';
import { scriptedModel, textStep } from './test-support/scripted-model.js';
import { pngBytes } from './test-support/sample-files.js';

// Attachments on PostgreSQL through node:http: rows and bytes in one database, uploads cut halfway by the
// client, a chat deleted with its attachments.
const url = process.env.CHATWIRE_TEST_DATABASE_URL;

describe.skipIf(!url)(`attachments on PostgreSQL ${url ? '' : '(skipped: CHATWIRE_TEST_DATABASE_URL not set)'}`, () => {
  const schema = `cw_attach_${process.pid}_${Date.now().toString(36)}`;
  // Two connections only: an upload that left one busy would soon starve the next ones.
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  const blobRows = async () => Number((await pool.query(`SELECT count(*)::int AS n FROM "${schema}"."chatwire_blobs"`)).rows[0].n);
  let server: Server;
  let port: number;
  let handler: ReturnType<typeof createChatHandler>;

  beforeAll(async () => {
    const store = createRecordStore({ driver: createPostgresDriver({ pool, schema }) });
    handler = createChatHandler({
      store,
      models: createModelRegistry({ fallbackModel: scriptedModel(Array.from({ length: 4 }, () => textStep('Seen.'))).model }),
      auth: { secret: SECRET },
      summarizerModelId: false,
      attachments: { blobs: createPostgresBlobStore({ pool, schema, chunkBytes: 64 * 1024 }) },
    });
    server = createServer(toNodeListener(handler));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await pool.end();
  });

  /** Sends the headers of a 4 MiB upload, about 1 MiB of it, then drops the connection. */
  async function cutUpload(): Promise<void> {
    const token = await signToken('alice');
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => undefined);
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    socket.write(`POST /api/ai/attachments HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${token}\r\nContent-Type: image/png\r\nContent-Length: ${4 * 1024 * 1024}\r\n\r\n`);
    socket.write(pngBytes());
    for (let i = 0; i < 16; i++) socket.write(Buffer.alloc(64 * 1024, 7));
    await new Promise((resolve) => setTimeout(resolve, 150));
    socket.destroy();
  }

  async function upload(): Promise<string> {
    const res = await fetch(`http://127.0.0.1:${port}/api/ai/attachments?filename=dot.png`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await signToken('alice')}`, 'content-type': 'image/png' },
      body: pngBytes() as BodyInit,
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as { attachment: { attachmentId: string } }).attachment.attachmentId;
  }

  it('an upload cut halfway stores nothing and leaves no connection busy, however often it happens', async () => {
    await upload(); // creates the tables
    const before = await blobRows();
    for (let i = 0; i < 3; i++) await cutUpload();
    await expect.poll(() => pool.idleCount === pool.totalCount && pool.waitingCount === 0, { timeout: 10_000 }).toBe(true);
    expect(await blobRows()).toBe(before);
    const rows = await pool.query(`SELECT count(*)::int AS n FROM "${schema}"."chatwire_records" WHERE collection = 'ai-attachments'`);
    expect(rows.rows[0].n).toBe(1);
    const stuck = await pool.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND state LIKE 'idle in transaction%'`);
    expect(stuck.rows[0].n).toBe(0);
    // The two connections still serve uploads.
    await Promise.all([upload(), upload()]);
  });

  it('a turn attaches an upload in its transaction; deleting the chat deletes the row and its bytes', async () => {
    const id = await upload();
    const token = await signToken('alice');
    const json = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const chat = (await (await fetch(`http://127.0.0.1:${port}/api/ai/chats`, { method: 'POST', headers: json, body: '{}' })).json()) as { chat: { recordId: string } };
    const chatId = chat.chat.recordId;
    const turn = await fetch(`http://127.0.0.1:${port}/api/ai/chat`, { method: 'POST', headers: json, body: JSON.stringify({ chatId, userMessageId: 'u1', content: '', attachments: [id] }) });
    expect(turn.status).toBe(200);
    await readSse(turn);
    const held = await pool.query(`SELECT data FROM "${schema}"."chatwire_records" WHERE collection = 'ai-attachments' AND record_id = $1`, [id]);
    expect(held.rows[0].data).toMatchObject({ chatId, messageId: expect.any(String) });
    const before = await blobRows();
    expect((await fetch(`http://127.0.0.1:${port}/api/ai/chats/${chatId}`, { method: 'DELETE', headers: json })).status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${port}/api/ai/attachments/${id}`, { headers: json })).status).toBe(404);
    expect(await blobRows()).toBe(before - 1);
  });
});
