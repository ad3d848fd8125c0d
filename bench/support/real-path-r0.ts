/**
 * R0, the floor of the real-path benches: node:http proxying the provider's SSE. A turn's body is parsed
 * (`{ chatId, content }`), the provider is called over a keep-alive `node:http` agent and its SSE bytes are
 * written to the client as they come (no parsing, no re-encoding, no auth, no storage). `GET /api/chats` is a
 * bare JSON endpoint: a list of 20 chats from an array in the shape chatwire answers (`recordId` a UUID, `userId`,
 * `title`, `createdAt`, `updatedAt`; so the same bytes), `JSON.stringify` per request.
 */
import { Agent, createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { LIST_CHATS, LIST_USER, readBody, REAL_QUESTION, sendJson, VENDOR_MODEL, type RealLine } from './real-path-line.js';

export function createR0Line(providerPort: number): RealLine {
  const agent = new Agent({ keepAlive: true, maxSockets: Infinity });
  const now = Date.now();
  const chats = Array.from({ length: LIST_CHATS }, (_, i) => ({
    recordId: randomUUID(),
    userId: LIST_USER,
    title: `Chat ${i + 1}`,
    createdAt: new Date(now - i * 1000).toISOString(),
    updatedAt: new Date(now - i * 1000).toISOString(),
  }));
  const errors: unknown[] = [];

  const turn = async (req: IncomingMessage, res: ServerResponse) => {
    const { content } = JSON.parse(await readBody(req)) as { chatId: string; content: string };
    const upstream = request(
      { host: '127.0.0.1', port: providerPort, path: '/v1/messages', method: 'POST', agent, headers: { 'content-type': 'application/json' } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        answer.on('data', (chunk: Buffer) => res.write(chunk));
        answer.on('end', () => res.end());
        answer.on('error', () => res.destroy());
      },
    );
    upstream.on('error', () => res.destroy());
    res.once('close', () => upstream.destroy());
    upstream.end(JSON.stringify({ model: VENDOR_MODEL, max_tokens: 4096, stream: true, messages: [{ role: 'user', content }] }));
  };

  return {
    server: createServer((req, res) => {
      if (req.method === 'GET' && req.url === '/api/chats') return sendJson(res, 200, JSON.stringify({ chats, nextCursor: null }));
      if (req.method === 'POST' && req.url === '/api/chat') return void turn(req, res).catch(() => res.destroy());
      sendJson(res, 404, '{"error":{"code":"NOT_FOUND","message":"not found"}}');
    }),
    async prepare(count) {
      const bodies = Array.from({ length: count }, (_, i) => JSON.stringify({ chatId: `chat-${i}`, content: REAL_QUESTION }));
      return { path: '/api/chat', headers: { 'content-type': 'application/json' }, bodies, marker: 'text_delta' };
    },
    list: { path: '/api/chats', headers: {} },
    errors,
    close: async () => agent.destroy(),
  };
}
