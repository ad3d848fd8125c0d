/**
 * Server child of `bench/list-chats.bench.ts` (run as `node --import tsx`, argv[2] = b|h|c). Serves
 * `GET /api/ai/chats` on 127.0.0.1 (port 0) for one user holding 20 chats, in a memory store that also
 * holds 20 chats each of 50 other users:
 * - B: a bare node:http server answering the same list from an in-memory array (read once from the
 *   store at start), `JSON.stringify` per request, no auth;
 * - H: a hand-written node:http route: bearer header, HS256 verified with node:crypto (signature, exp,
 *   nbf, sub), the chatwire store's `asCaller(caller).query` (owner rule, newest first), JSON answer;
 * - C: chatwire, `toNodeListener(createChatHandler({ store, auth: { secret } }))`.
 * All three answer the same bytes (same ids, titles and timestamps except for the random ids' values).
 * Answers the parent over IPC: `cpu` (process CPU so far).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AI_CHATS, createChatService, createModelRegistry } from '@chatwire/core';
import { createChatHandler } from '@chatwire/server';
import { toNodeListener } from '@chatwire/server/node';
import { createRecordStore, type Caller } from '@chatwire/storage';
import { createMemoryDriver } from '@chatwire/storage/memory';
import type { ListChatsLine, ListServerCommand, ListServerReply } from './list-chats-protocol.js';
import { signHs256 } from './sign-hs256.js';

const line = process.argv[2] as ListChatsLine;
const SECRET = 'bench-secret-that-is-at-least-32-bytes-long!!';
const USER = 'bench-user';
const CHATS = 20;
const OTHER_USERS = 50;
const PATH = '/api/ai/chats';

const store = createRecordStore({ driver: createMemoryDriver() });
const service = createChatService({ store, models: createModelRegistry() });
// Other users' chats interleaved with the bench user's, as real traffic writes them.
for (let i = 0; i < CHATS; i++) {
  for (let u = 0; u < OTHER_USERS; u++) await service.createChat({ userId: `other-${u}` }, { title: `Chat ${i + 1} of ${u}` });
  await service.createChat({ userId: USER }, { title: `Chat ${i + 1}` });
}
const token = signHs256({ sub: USER }, SECRET, 24 * 3600);

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

function json(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
}

async function bareListener(): Promise<Listener> {
  const { chats } = await service.listChats({ userId: USER });
  return (_req, res) => json(res, 200, JSON.stringify({ chats, nextCursor: null }));
}

/** HS256 by hand: signature (constant time), alg, exp/nbf with 5 s leeway, non-empty sub. */
function verifyHs256(jwt: string): Caller | null {
  const parts = jwt.split('.');
  if (parts.length !== 3) return null;
  const [header, payload, signature] = parts as [string, string, string];
  const expected = createHmac('sha256', SECRET).update(`${header}.${payload}`).digest();
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const h = JSON.parse(Buffer.from(header, 'base64url').toString()) as { alg?: unknown };
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as { sub?: unknown; exp?: unknown; nbf?: unknown };
    const now = Date.now() / 1000;
    if (h.alg !== 'HS256' || typeof claims.exp !== 'number' || claims.exp + 5 <= now) return null;
    if (typeof claims.nbf === 'number' && claims.nbf - 5 > now) return null;
    if (typeof claims.sub !== 'string' || claims.sub === '') return null;
    return { userId: claims.sub };
  } catch {
    return null;
  }
}

function handWrittenListener(): Listener {
  const route = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    if ((q === -1 ? url : url.slice(0, q)) !== PATH || req.method !== 'GET') return json(res, 404, '{"error":{"code":"NOT_FOUND"}}');
    const auth = req.headers.authorization;
    const caller = auth?.startsWith('Bearer ') ? verifyHs256(auth.slice(7)) : null;
    if (!caller) return json(res, 401, '{"error":{"code":"UNAUTHORIZED"}}');
    const params = q === -1 ? null : new URLSearchParams(url.slice(q + 1));
    const limit = Number(params?.get('limit') ?? 20);
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) return json(res, 400, '{"error":{"code":"VALIDATION"}}');
    const page = await store.asCaller(caller).query<{ userId: string; title: string }>(AI_CHATS, {
      orderBy: { field: 'createdAt', direction: 'desc' },
      limit,
      ...(params?.get('cursor') ? { cursor: params.get('cursor')! } : {}),
    });
    const chats = page.records.map((r) => ({
      recordId: r.recordId,
      userId: r.data.userId,
      title: r.data.title,
      createdAt: r.createdAt,
      updatedAt: r.updatedAt,
    }));
    json(res, 200, JSON.stringify({ chats, nextCursor: page.nextCursor }));
  };
  return (req, res) => void route(req, res).catch(() => json(res, 500, '{"error":{"code":"INTERNAL"}}'));
}

function chatwireListener(): Listener {
  const handler = createChatHandler({ store, models: createModelRegistry(), auth: { secret: SECRET } });
  return toNodeListener(handler);
}

const listener = line === 'b' ? await bareListener() : line === 'h' ? handWrittenListener() : chatwireListener();
const server = createServer({ keepAliveTimeout: 60_000 }, listener);

function send(reply: ListServerReply): void {
  process.send!(reply);
}

server.listen(0, '127.0.0.1', () => {
  const spec = { port: (server.address() as AddressInfo).port, path: PATH, headers: { authorization: `Bearer ${token}` } };
  void fetch(`http://127.0.0.1:${spec.port}${PATH}`, { headers: spec.headers })
    .then(async (response) => {
      if (response.status !== 200) throw new Error(`line ${line} answered ${response.status}`);
      send({ type: 'ready', spec, body: await response.text() });
    })
    .catch((error: unknown) => {
      process.stderr.write(`list-chats server ${line}: ${String(error)}\n`);
      process.exit(1);
    });
});

process.on('message', (command: ListServerCommand) => {
  switch (command.type) {
    case 'cpu': {
      const { user, system } = process.cpuUsage();
      return send({ type: 'cpu', micros: user + system });
    }
    case 'exit':
      server.closeAllConnections();
      server.close();
      process.exit(0);
  }
});
