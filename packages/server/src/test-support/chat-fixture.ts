import type { LanguageModelV2 } from '@ai-sdk/provider';
import { createModelRegistry } from '@chatwire/core';
import { createRecordStore, type RecordStore, type StoreDriver } from '@chatwire/storage';
import { createMemoryDriver } from '@chatwire/storage/memory';
import { SignJWT } from 'jose';
import { createChatHandler, type ChatHandler, type ChatHandlerOptions } from '../create-chat-handler.js';

export const SECRET = 'test-secret-that-is-at-least-32-bytes-long!';
export const BASE = 'http://localhost/api/ai';

export async function signToken(sub: string, claims: Record<string, unknown> = {}, expiresIn = '1h'): Promise<string> {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(sub)
    .setIssuedAt()
    .setExpirationTime(expiresIn)
    .sign(new TextEncoder().encode(SECRET));
}

export interface ChatFixture {
  handler: ChatHandler;
  store: RecordStore;
  errors: unknown[];
  /** Sends a request as `user` (a user id, or null for no Authorization header). */
  request(method: string, path: string, options?: { user?: string | null; body?: unknown; raw?: string; signal?: AbortSignal }): Promise<Response>;
  createChat(user: string, title?: string): Promise<string>;
  /** Every row of a collection, server view. */
  rows(collection: string): Promise<Array<{ recordId: string; data: Record<string, unknown> }>>;
}

export function chatFixture(
  model: LanguageModelV2,
  options: { driver?: StoreDriver; handler?: Partial<ChatHandlerOptions> } = {},
): ChatFixture {
  const store = createRecordStore({ driver: options.driver ?? createMemoryDriver() });
  const errors: unknown[] = [];
  const handler = createChatHandler({
    store,
    models: createModelRegistry({ fallbackModel: model }),
    auth: { secret: SECRET },
    summarizerModelId: false,
    onError: (error) => errors.push(error),
    ...(options.handler as object),
  } as ChatHandlerOptions);

  const request: ChatFixture['request'] = async (method, path, { user = 'alice', body, raw, signal } = {}) => {
    const headers: Record<string, string> = {};
    if (user) headers.authorization = `Bearer ${await signToken(user)}`;
    if (body !== undefined || raw !== undefined) headers['content-type'] = 'application/json';
    return handler(
      new Request(`${BASE}${path}`, {
        method,
        headers,
        ...(raw !== undefined ? { body: raw } : body !== undefined ? { body: JSON.stringify(body) } : {}),
        ...(signal ? { signal } : {}),
      }),
    );
  };

  return {
    handler,
    store,
    errors,
    request,
    async createChat(user, title) {
      const res = await request('POST', '/chats', { user, body: title === undefined ? {} : { title } });
      return ((await res.json()) as { chat: { recordId: string } }).chat.recordId;
    },
    async rows(collection) {
      const out: Array<{ recordId: string; data: Record<string, unknown> }> = [];
      let cursor: string | undefined;
      do {
        const page = await store.asServer().query(collection, { limit: 200, ...(cursor ? { cursor } : {}) });
        out.push(...page.records.map((r) => ({ recordId: r.recordId, data: r.data })));
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      return out;
    },
  };
}

/** Reads an SSE body to its chunks (JSON objects) and whether it ended with [DONE]. */
export async function readSse(response: Response): Promise<{ chunks: Array<Record<string, unknown>>; done: boolean }> {
  const text = await response.text();
  const events = text.split('\n\n').filter((e) => e.length > 0);
  const chunks: Array<Record<string, unknown>> = [];
  let done = false;
  for (const event of events) {
    const data = event.replace(/^data: /, '');
    if (data === '[DONE]') done = true;
    else chunks.push(JSON.parse(data) as Record<string, unknown>);
  }
  return { chunks, done };
}
