/**
 * Runs one chat turn against the INSTALLED packages (a fresh app outside the monorepo, see
 * `scripts/check-packages.sh`): the memory store, the demo model, a signed HS256 JWT, over node:http.
 * Only public entries are imported. When the public API changes, `createSmokeApp` is the part to adapt.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createDemoModel, createModelRegistry } from '@chatwire/core';
import { createChatHandler } from '@chatwire/server';
import { toNodeListener } from '@chatwire/server/node';
import { createRecordStore } from '@chatwire/storage';
import { createMemoryDriver } from '@chatwire/storage/memory';
import { SignJWT } from 'jose';

const SECRET = 'package-smoke-secret-of-at-least-32-bytes';

/** The app under test: chatwire with the memory store and the demo model, mounted on node:http. */
function createSmokeApp(onError: (error: unknown) => void): Server {
  const handler = createChatHandler({
    store: createRecordStore({ driver: createMemoryDriver() }),
    models: createModelRegistry({ fallbackModel: createDemoModel({ chunkDelayMs: 0 }) }),
    auth: { secret: SECRET },
    onError,
  });
  const chatwire = toNodeListener(handler, { onError });
  return createServer((req, res) => chatwire(req, res, () => res.writeHead(404).end()));
}

function fail(message: string): never {
  throw new Error(`package smoke: ${message}`);
}

const errors: unknown[] = [];
const server = createSmokeApp((error) => errors.push(error));
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/ai`;

try {
  const token = await new SignJWT({})
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject('smoke-user')
    .setIssuedAt()
    .setExpirationTime('5m')
    .sign(new TextEncoder().encode(SECRET));
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };

  const created = await fetch(`${base}/chats`, { method: 'POST', headers, body: JSON.stringify({ title: 'Smoke' }) });
  if (created.status !== 201) fail(`POST /chats answered ${created.status}: ${await created.text()}`);
  const { chat } = (await created.json()) as { chat: { recordId: string } };

  const turn = await fetch(`${base}/chat`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ chatId: chat.recordId, userMessageId: 'smoke-message-1', content: 'Hello there' }),
  });
  if (turn.status !== 200) fail(`POST /chat answered ${turn.status}: ${await turn.text()}`);
  if (!turn.headers.get('content-type')?.startsWith('text/event-stream')) fail('POST /chat is not an SSE stream');
  const body = await turn.text();
  const events = body.split('\n\n').filter((event) => event.trim() !== '');
  if (events.at(-1) !== 'data: [DONE]') fail(`the stream does not end with data: [DONE]:\n${body}`);
  const chunks = events.slice(0, -1).map((event) => JSON.parse(event.replace(/^data: /, '')) as { type: string; delta?: string; errorText?: string });
  const failed = chunks.find((chunk) => chunk.type === 'error');
  if (failed) fail(`the stream carries an error chunk: ${failed.errorText}`);
  const text = chunks.map((chunk) => (chunk.type === 'text-delta' ? chunk.delta ?? '' : '')).join('');
  if (text.trim() === '') fail(`the stream has no text:\n${body}`);
  if (chunks.at(-1)?.type !== 'finish') fail(`the last chunk is not finish:\n${body}`);
  if (errors.length > 0) fail(`onError was called: ${String(errors[0])}`);
  console.log(`package smoke: a turn streamed ${chunks.length} chunks, text: ${JSON.stringify(text.slice(0, 80))}`);
} finally {
  server.close();
}
