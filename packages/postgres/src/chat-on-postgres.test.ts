import type { LanguageModelV2StreamPart } from '@ai-sdk/provider';
import { createModelRegistry } from '@chatwire/core';
import { createChatHandler, type ChatHandler } from '@chatwire/server';
import { createRecordStore, type StoreDriver } from '@chatwire/storage';
import { MockLanguageModelV2 } from 'ai/test';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { backends } from './testing/test-backends.js';

/** Two chat handlers (two "processes") sharing one database: leases, atomic turns and cascade deletes. */
const SECRET = 'postgres-e2e-secret-that-is-32-bytes!!';
const reply: LanguageModelV2StreamPart[] = [
  { type: 'text-start', id: 't' },
  { type: 'text-delta', id: 't', delta: 'Stored ' },
  { type: 'text-delta', id: 't', delta: 'answer.' },
  { type: 'text-end', id: 't' },
  { type: 'finish', finishReason: 'stop', usage: { inputTokens: 1, outputTokens: 2, totalTokens: 3 } },
];

function gatedModel() {
  let open: () => void = () => undefined;
  let gate = Promise.resolve();
  const model = new MockLanguageModelV2({
    doStream: async () => ({
      stream: new ReadableStream<LanguageModelV2StreamPart>({
        async start(c) {
          c.enqueue(reply[0]!);
          await gate;
          for (const part of reply.slice(1)) c.enqueue(part);
          c.close();
        },
      }),
    }),
  });
  return { model, hold: () => (gate = new Promise((r) => (open = r))), release: () => open() };
}

function handlerOn(driver: StoreDriver, model: MockLanguageModelV2): ChatHandler {
  const store = createRecordStore({ driver });
  return createChatHandler({ store, models: createModelRegistry({ fallbackModel: model }), auth: { secret: SECRET }, summarizerModelId: false });
}

async function call(handler: ChatHandler, method: string, path: string, body?: unknown): Promise<Response> {
  const token = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject('alice').setExpirationTime('1h').sign(new TextEncoder().encode(SECRET));
  return handler(
    new Request(`http://localhost/api/ai${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }),
  );
}

for (const backend of backends) {
  describe.skipIf(backend.skipReason !== '')(`chat handlers on ${backend.name} ${backend.skipReason}`.trim(), () => {
    it('two handlers on one database run one turn per chat (409 CHAT_BUSY), store paired rows, and cascade deletes', async () => {
      const db = await backend.open('chat');
      try {
        const gated = gatedModel();
        const a = handlerOn(db.driver, gated.model);
        const b = handlerOn(await db.openPeer(), gated.model);
        const chatId = ((await (await call(a, 'POST', '/chats', { title: 't' })).json()) as { chat: { recordId: string } }).chat.recordId;

        gated.hold();
        const first = await call(a, 'POST', '/chat', { chatId, userMessageId: 'u1', content: 'one' });
        expect(first.status).toBe(200);
        const busy = await call(b, 'POST', '/chat', { chatId, userMessageId: 'u2', content: 'two' });
        expect(busy.status).toBe(409);
        expect(((await busy.json()) as { error: { code: string } }).error.code).toBe('CHAT_BUSY');
        gated.release();
        expect(await first.text()).toContain('data: [DONE]');

        const second = await call(b, 'POST', '/chat', { chatId, userMessageId: 'u2', content: 'two' });
        expect(second.status).toBe(200);
        await second.text();
        const replay = await call(a, 'POST', '/chat', { chatId, userMessageId: 'u2', content: 'two' });
        expect(replay.status).toBe(409);

        const history = (await (await call(a, 'GET', `/chats/${chatId}`)).json()) as { messages: Array<{ data: { role: string; content: string } }> };
        expect(history.messages.map((m) => [m.data.role, m.data.content])).toEqual([
          ['user', 'one'],
          ['assistant', 'Stored answer.'],
          ['user', 'two'],
          ['assistant', 'Stored answer.'],
        ]);
        const turns = await db.sql.query<{ n: string }>(`SELECT count(*)::text AS n FROM "${db.schema}".chatwire_records WHERE collection = 'ai-turns'`);
        expect(turns.rows[0]!.n).toBe('2');

        const deleted = await call(b, 'DELETE', `/chats/${chatId}`);
        expect(await deleted.json()).toEqual({ deleted: { chatId, messages: 4 } });
        // Nothing is left but the usage ledger, a spend ledger that deletes never shrink.
        const left = await db.sql.query<{ collection: string; turns: number }>(
          `SELECT collection, (data->>'turns')::int AS turns FROM "${db.schema}".chatwire_records`,
        );
        expect(left.rows).toEqual([{ collection: 'ai-usage', turns: 2 }]);
      } finally {
        await db.cleanup();
      }
    });

    it('a chat deleted by another process while its turn is being saved leaves no orphan rows', async () => {
      const db = await backend.open('race');
      try {
        const gated = gatedModel();
        let deletion: Promise<Response> | undefined;
        let b: ChatHandler | undefined;
        // Process A pauses inside its save transaction, right before the first message insert, while
        // process B deletes the chat.
        const pauseBeforeFirstInsert = (driver: StoreDriver): StoreDriver =>
          new Proxy(driver, {
            get(target, key, receiver) {
              if (key === 'insert') {
                return async (collection: string, input: Parameters<StoreDriver['insert']>[1]) => {
                  if (collection === 'ai-messages' && !deletion) {
                    deletion = call(b!, 'DELETE', `/chats/${chatId}`);
                    await new Promise((r) => setTimeout(r, 300));
                  }
                  return target.insert(collection, input);
                };
              }
              if (key === 'transaction') {
                return <T>(fn: (tx: StoreDriver) => Promise<T>) => target.transaction!((tx) => fn(pauseBeforeFirstInsert(tx)));
              }
              return Reflect.get(target, key, receiver) as unknown;
            },
          });
        const a = handlerOn(pauseBeforeFirstInsert(db.driver), gated.model);
        b = handlerOn(await db.openPeer(), gated.model);
        const chatId = ((await (await call(a, 'POST', '/chats', {})).json()) as { chat: { recordId: string } }).chat.recordId;

        const turn = await call(a, 'POST', '/chat', { chatId, userMessageId: 'u1', content: 'one' });
        await turn.text();
        expect(deletion).toBeDefined();
        expect((await deletion!).status).toBe(200);
        // The turn was stored (its save held the chat row, so the delete waited), then deleted with its chat:
        // no orphan row; its tokens stay in the usage ledger.
        const left = await db.sql.query<{ collection: string; turns: number }>(
          `SELECT collection, (data->>'turns')::int AS turns FROM "${db.schema}".chatwire_records`,
        );
        expect(left.rows).toEqual([{ collection: 'ai-usage', turns: 1 }]);
      } finally {
        await db.cleanup();
      }
    });
  });
}
