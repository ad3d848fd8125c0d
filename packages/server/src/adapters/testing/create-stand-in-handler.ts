import { streamText } from 'ai';
import type { LanguageModel } from 'ai';
import type { ChatHandlerLike } from '../chat-handler-like.js';

export const STAND_IN_TOKEN = 'stand-in-token';

/**
 * A small fetch handler speaking a subset of the HTTP contract (POST /chats, POST /chat), with the
 * shape of `createChatHandler`'s result. It exists to test the adapters on their own: bridge tests use
 * it where the real handler has no route for what they check (cookies, byte streams).
 */
export function createStandInHandler(options: {
  model: () => LanguageModel;
  maxBodyBytes?: number;
}): ChatHandlerLike {
  const basePath = '/api/ai';
  const maxBodyBytes = options.maxBodyBytes ?? 1024;
  const matches = (pathname: string): boolean => pathname === basePath || pathname.startsWith(`${basePath}/`);

  const handle = async (request: Request): Promise<Response> => {
    const { pathname } = new URL(request.url);
    const route = `${request.method} ${pathname.slice(basePath.length)}`;
    if (route !== 'POST /chats' && route !== 'POST /chat') return error(404, 'NOT_FOUND', `no route for ${route}`);
    if (request.headers.get('authorization') !== `Bearer ${STAND_IN_TOKEN}`) {
      return error(401, 'UNAUTHORIZED', 'missing or invalid bearer token');
    }
    const text = await readLimited(request, maxBodyBytes);
    if (text === null) return error(413, 'PAYLOAD_TOO_LARGE', `request body exceeds ${maxBodyBytes} bytes`);
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(text) as Record<string, unknown>;
    } catch {
      return error(400, 'VALIDATION', 'request body is not valid JSON');
    }
    if (route === 'POST /chats') {
      const chat = { recordId: crypto.randomUUID(), userId: 'u1', title: String(body.title ?? 'New chat') };
      return Response.json({ chat }, { status: 201 });
    }
    const assistantId = crypto.randomUUID();
    const result = streamText({ model: options.model(), prompt: String(body.content), abortSignal: request.signal });
    return result.toUIMessageStreamResponse({
      generateMessageId: () => assistantId,
      headers: { 'X-Asst-Id': assistantId },
    });
  };
  return Object.assign(handle, { basePath, matches });
}

function error(status: number, code: string, message: string): Response {
  return Response.json({ error: { code, message } }, { status });
}

/** The body as text, or null once it exceeds `limit` bytes (the rest is not read). */
async function readLimited(request: Request, limit: number): Promise<string | null> {
  if (request.body === null) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
