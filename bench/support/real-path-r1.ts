/**
 * R1 of the real-path benches: the bare AI SDK app a user would write on node:http. A turn: bearer JWT
 * verified with jose (HS256), the chat looked up in an in-memory map (owner checked), the user's message
 * appended, `streamText({ model: anthropic(...), messages })` with the real `@ai-sdk/anthropic` package
 * over HTTP, the UI message stream piped to the response (`pipeUIMessageStreamToResponse`, the node:http
 * form of `toUIMessageStreamResponse`), the answer appended to the chat when it finishes. `GET /api/chats`:
 * the same token check and the user's 20 newest chats from the in-memory list.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { convertToModelMessages, streamText, type UIMessage } from 'ai';
import { createAnthropic, loadJose } from './real-path-deps.js';
import { LIST_CHATS, LIST_USER, readBody, REAL_QUESTION, REAL_SECRET, sendJson, VENDOR_MODEL, type RealLine } from './real-path-line.js';
import { signHs256 } from './sign-hs256.js';

interface Chat {
  id: string;
  userId: string;
  title: string;
  createdAt: string;
  messages: UIMessage[];
}

const USER = 'bench-user';

export async function createR1Line(providerPort: number): Promise<RealLine> {
  const { jwtVerify } = await loadJose();
  const key = new TextEncoder().encode(REAL_SECRET);
  const anthropic = createAnthropic({ baseURL: `http://127.0.0.1:${providerPort}/v1`, apiKey: 'bench-key' });
  const chats = new Map<string, Chat>();
  const byUser = new Map<string, Chat[]>();
  const errors: unknown[] = [];
  let created = 0;
  const newChat = (userId: string) => {
    const chat: Chat = { id: randomUUID(), userId, title: `Chat ${++created}`, createdAt: new Date().toISOString(), messages: [] };
    chats.set(chat.id, chat);
    byUser.set(userId, [...(byUser.get(userId) ?? []), chat].slice(-100));
    return chat;
  };
  for (let i = 0; i < LIST_CHATS; i++) newChat(LIST_USER);
  const token = signHs256({ sub: USER }, REAL_SECRET, 24 * 3600);
  const listToken = signHs256({ sub: LIST_USER }, REAL_SECRET, 24 * 3600);

  const caller = async (req: IncomingMessage): Promise<string | null> => {
    const header = req.headers.authorization;
    if (!header?.startsWith('Bearer ')) return null;
    try {
      const { payload } = await jwtVerify(header.slice(7), key, { algorithms: ['HS256'] });
      return typeof payload.sub === 'string' && payload.sub !== '' ? payload.sub : null;
    } catch {
      return null;
    }
  };

  const turn = async (req: IncomingMessage, res: ServerResponse) => {
    const userId = await caller(req);
    if (userId === null) return sendJson(res, 401, '{"error":{"code":"UNAUTHORIZED","message":"bad token"}}');
    const { chatId, message } = JSON.parse(await readBody(req)) as { chatId: string; message: UIMessage };
    const chat = chats.get(chatId);
    if (!chat || chat.userId !== userId) return sendJson(res, 404, '{"error":{"code":"NOT_FOUND","message":"no such chat"}}');
    chat.messages.push(message);
    const controller = new AbortController();
    res.once('close', () => controller.abort());
    const result = streamText({
      model: anthropic(VENDOR_MODEL),
      messages: convertToModelMessages(chat.messages),
      abortSignal: controller.signal,
      onError: ({ error }) => void errors.push(error),
    });
    result.pipeUIMessageStreamToResponse(res, {
      originalMessages: chat.messages,
      onFinish: ({ messages }) => void (chat.messages = messages),
    });
  };

  const list = async (req: IncomingMessage, res: ServerResponse) => {
    const userId = await caller(req);
    if (userId === null) return sendJson(res, 401, '{"error":{"code":"UNAUTHORIZED","message":"bad token"}}');
    const newest = (byUser.get(userId) ?? []).slice(-20).reverse();
    const list = newest.map((chat) => ({ recordId: chat.id, userId: chat.userId, title: chat.title, createdAt: chat.createdAt, updatedAt: chat.createdAt }));
    sendJson(res, 200, JSON.stringify({ chats: list, nextCursor: null }));
  };

  return {
    server: createServer((req, res) => {
      const fail = () => res.destroy();
      if (req.method === 'GET' && req.url === '/api/chats') return void list(req, res).catch(fail);
      if (req.method === 'POST' && req.url === '/api/chat') return void turn(req, res).catch(fail);
      sendJson(res, 404, '{"error":{"code":"NOT_FOUND","message":"not found"}}');
    }),
    async prepare(count) {
      const bodies = Array.from({ length: count }, () =>
        JSON.stringify({ chatId: newChat(USER).id, message: { id: 'u-__SEQ__', role: 'user', parts: [{ type: 'text', text: REAL_QUESTION }] } }),
      );
      return { path: '/api/chat', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, bodies };
    },
    list: { path: '/api/chats', headers: { authorization: `Bearer ${listToken}` } },
    errors,
    close: async () => undefined,
  };
}
