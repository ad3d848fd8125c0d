import { createModelRegistry } from '@chatwire/core';
import { scriptedModel, textStep } from '@chatwire/core/testing';
import { createChatHandler, type ChatHandler } from '@chatwire/server';
import { createRecordStore, type BlobStore, type RecordAccess, type RecordStore } from '@chatwire/storage';
import { SignJWT } from 'jose';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresBlobStore } from './create-postgres-blob-store.js';
import { createPostgresDriver } from './create-postgres-driver.js';
import { databaseUrl, SERVER_SKIP_REASON, uniqueSchema } from './testing/test-backends.js';

// Attachment bytes in the record store's own database: an upload's bytes and row commit in one
// transaction, and a chat's bytes are deleted in the transaction deleting its rows.
const SECRET = 'blob-transactions-secret-that-is-32-bytes!';

async function call(handler: ChatHandler, method: string, path: string, body?: BodyInit, type = 'application/json'): Promise<Response> {
  const token = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject('alice').setExpirationTime('1h').sign(new TextEncoder().encode(SECRET));
  return handler(
    new Request(`http://localhost/api/ai${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': type },
      ...(body === undefined ? {} : { body, duplex: 'half' }),
    } as RequestInit),
  );
}

/** A server access whose `create` of attachment rows first runs `before`, then fails (in and out of transactions). */
function failingRowCreates(store: RecordStore, before: () => Promise<void>): RecordStore {
  const wrap = (access: RecordAccess): RecordAccess =>
    new Proxy(access, {
      get(target, prop) {
        if (prop === 'create') {
          return async (collection: string, ...rest: unknown[]) => {
            if (collection === 'ai-attachments') {
              await before();
              throw new Error('row insert failed');
            }
            return (target.create as (...args: unknown[]) => unknown)(collection, ...rest);
          };
        }
        if (prop === 'transaction') return <T,>(fn: (tx: RecordAccess) => Promise<T>) => target.transaction((tx) => fn(wrap(tx)));
        const value = Reflect.get(target, prop, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  return Object.assign(Object.create(store) as RecordStore, { asServer: () => wrap(store.asServer()) });
}

describe.skipIf(!databaseUrl)(`attachment bytes in the rows' transactions ${databaseUrl ? '' : SERVER_SKIP_REASON}`, () => {
  const schema = uniqueSchema('blobtx');
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 3 });
  const admin = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  const driver = createPostgresDriver({ pool, schema });
  const store = createRecordStore({ driver });
  // No schema given: the blob table goes beside the driver's tables (its schema, its prefix).
  const blobs = createPostgresBlobStore({ driver, chunkBytes: 16 * 1024 });
  /** Stored blobs (keys, whatever their chunk rows). */
  const blobRows = async () => Number((await admin.query(`SELECT count(DISTINCT key)::int AS n FROM "${schema}"."chatwire_blobs"`)).rows[0].n);
  const attachmentRows = async () =>
    Number((await admin.query(`SELECT count(*)::int AS n FROM "${schema}"."chatwire_records" WHERE collection = 'ai-attachments'`)).rows[0].n);
  const handlerWith = (options: { store?: RecordStore; blobs?: BlobStore; quotaBytesPerUser?: number } = {}) =>
    createChatHandler({
      store: options.store ?? store,
      models: createModelRegistry({ fallbackModel: scriptedModel(Array.from({ length: 4 }, () => textStep('Seen.'))).model }),
      auth: { secret: SECRET },
      summarizerModelId: false,
      attachments: { blobs: options.blobs ?? blobs, ...(options.quotaBytesPerUser ? { quotaBytesPerUser: options.quotaBytesPerUser } : {}) },
    });
  const text = (bytes: number) => 'a'.repeat(bytes);

  beforeAll(async () => {
    expect((await call(handlerWith(), 'POST', '/attachments?filename=first.txt', text(10), 'text/plain')).status).toBe(201); // makes the tables
  });
  afterAll(async () => {
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await Promise.all([pool.end(), admin.end()]);
  });

  it('an upload whose row insert fails never commits its bytes and leaves none', async () => {
    const before = await blobRows();
    const committedWhileInserting: number[] = [];
    const handler = handlerWith({ store: failingRowCreates(store, async () => void committedWhileInserting.push(await blobRows())) });
    const res = await call(handler, 'POST', '/attachments?filename=big.txt', text(100 * 1024), 'text/plain');
    expect(res.status).toBe(500);
    // Seen from another connection as the row was written: the bytes were not there (same transaction).
    expect(committedWhileInserting).toEqual([before]);
    expect(await blobRows()).toBe(before);
  });

  it('an upload cut halfway stores nothing and leaves no connection busy', async () => {
    const before = { blobs: await blobRows(), rows: await attachmentRows() };
    const cut = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 6; i++) controller.enqueue(new TextEncoder().encode(text(16 * 1024)));
      },
      async pull(controller) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        controller.error(new Error('socket closed'));
      },
    });
    const res = await call(handlerWith(), 'POST', '/attachments?filename=cut.txt', cut, 'text/plain').catch((error: unknown) => error);
    expect(res instanceof Response ? res.status : 'rejected').not.toBe(201);
    expect({ blobs: await blobRows(), rows: await attachmentRows() }).toEqual(before);
    await expect.poll(() => pool.idleCount === pool.totalCount && pool.waitingCount === 0, { timeout: 5000 }).toBe(true);
  });

  it('concurrent uploads that fit the quota one at a time but not together: one is stored, the other is 429', async () => {
    const handler = handlerWith({ quotaBytesPerUser: 10 + 150 * 1024 });
    const before = await blobRows();
    const results = await Promise.all([1, 2].map(() => call(handler, 'POST', '/attachments?filename=q.txt', text(100 * 1024), 'text/plain')));
    expect(results.map((r) => r.status).sort()).toEqual([201, 429]);
    const refused = results.find((r) => r.status === 429)!;
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('QUOTA_EXCEEDED');
    expect(await blobRows()).toBe(before + 1);
    // The stored one still counts: one more byte than the room left is refused before reading.
    expect((await call(handler, 'POST', '/attachments', text(50 * 1024 + 1), 'text/plain')).status).toBe(429);
  });

  it('a chat delete whose bytes cannot be deleted rolls back: the chat, its attachment and its bytes stay', async () => {
    const failingDeletes: BlobStore = {
      ...blobs,
      delete: async () => {
        throw new Error('disk gone');
      },
      joinTransaction(tx) {
        const joined = blobs.joinTransaction!(tx);
        return joined && { put: joined.put, delete: async (key) => (await joined.delete(key)) && Promise.reject(new Error('disk gone')) };
      },
    };
    const handler = handlerWith({ blobs: failingDeletes });
    const upload = (await (await call(handler, 'POST', '/attachments?filename=keep.txt', text(40 * 1024), 'text/plain')).json()) as { attachment: { attachmentId: string } };
    const id = upload.attachment.attachmentId;
    const chatId = ((await (await call(handler, 'POST', '/chats', '{}')).json()) as { chat: { recordId: string } }).chat.recordId;
    const turn = await call(handler, 'POST', '/chat', JSON.stringify({ chatId, userMessageId: 'u1', content: 'see', attachments: [id] }));
    expect(turn.status).toBe(200);
    await turn.text();
    const before = await blobRows();
    expect((await call(handler, 'DELETE', `/chats/${chatId}`)).status).toBe(500);
    expect((await call(handler, 'GET', `/chats/${chatId}`)).status).toBe(200);
    const content = await call(handler, 'GET', `/attachments/${id}/content`);
    expect(content.status).toBe(200);
    expect((await content.text()).length).toBe(40 * 1024);
    expect(await blobRows()).toBe(before);
    // With a working store the same delete takes the rows and the bytes at once.
    expect((await call(handlerWith(), 'DELETE', `/chats/${chatId}`)).status).toBe(200);
    expect(await blobRows()).toBe(before - 1);
    expect((await call(handlerWith(), 'GET', `/attachments/${id}`)).status).toBe(404);
  });
});
