import type { ChatHandler } from '../create-chat-handler.js';
import { readSse, signToken } from '../test-support/chat-fixture.js';
import type { ReplayFixture } from './replay-fixture.js';
import type { ReplayedRequest, ReplayProvider } from './replay-provider.js';
import { replayHandler } from './replay-handler.js';

export interface ChatwireRun {
  handler: ChatHandler;
  token: string;
  chatId: string;
  assistantMessageId: string;
  chunks: Array<Record<string, unknown>>;
  /** The stream ended with `data: [DONE]`. */
  done: boolean;
  /** The stored assistant row's parts (`GET /chats/:id`), or null when no assistant row was stored. */
  storedParts: unknown[] | null;
  /** How many messages the chat holds after the turn (`GET /chats/:id`). */
  storedMessages: number;
  requests: ReplayedRequest[];
}

async function call(handler: ChatHandler, token: string, method: string, path: string, body?: unknown): Promise<Response> {
  return handler(
    new Request(`http://localhost/api/ai${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }),
  );
}

/** Sends one user message to an existing chat over HTTP and reads the stream and the stored answer back. */
export async function sendTurn(
  run: Pick<ChatwireRun, 'handler' | 'token' | 'chatId'>,
  provider: ReplayProvider,
  fixture: Pick<ReplayFixture, 'modelId' | 'content' | 'responses'>,
  userMessageId: string,
): Promise<ChatwireRun> {
  provider.load(fixture.responses);
  const res = await call(run.handler, run.token, 'POST', '/chat', { chatId: run.chatId, userMessageId, content: fixture.content, modelId: fixture.modelId });
  if (res.status !== 200) throw new Error(`POST /chat answered ${res.status}: ${await res.text()}`);
  const assistantMessageId = res.headers.get('x-asst-id')!;
  const { chunks, done } = await readSse(res);
  const requests = [...provider.requests];
  const chat = (await (await call(run.handler, run.token, 'GET', `/chats/${run.chatId}`)).json()) as {
    messages: Array<{ recordId: string; data: { parts?: unknown[] } }>;
  };
  const row = chat.messages.find((m) => m.recordId === assistantMessageId);
  return { ...run, assistantMessageId, chunks, done, storedParts: row ? (row.data.parts ?? []) : null, storedMessages: chat.messages.length, requests };
}

/** A fresh chatwire (memory store), a new chat, and the fixture's user message, all through the HTTP handler. */
export async function runChatwire(fixture: ReplayFixture, provider: ReplayProvider): Promise<ChatwireRun> {
  const handler = replayHandler(fixture.providerTools);
  const token = await signToken('alice');
  const created = (await (await call(handler, token, 'POST', '/chats', {})).json()) as { chat: { recordId: string } };
  return sendTurn({ handler, token, chatId: created.chat.recordId }, provider, fixture, 'u-1');
}
