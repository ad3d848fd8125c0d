import type { ChatHandlerLike } from '../chat-handler-like.js';

/**
 * A handler under `/api/ai` for adapter unit tests: echoes method, path and body as JSON; `/api/ai/throw`
 * throws, `/api/ai/broken` streams one chunk then fails; other paths outside the base path get 404 JSON.
 */
export function createEchoHandler(): ChatHandlerLike {
  const basePath = '/api/ai';
  const matches = (pathname: string): boolean => pathname === basePath || pathname.startsWith(`${basePath}/`);
  const handle = async (request: Request): Promise<Response> => {
    const { pathname } = new URL(request.url);
    if (!matches(pathname)) return Response.json({ error: { code: 'NOT_FOUND', message: 'no route' } }, { status: 404 });
    if (pathname === `${basePath}/throw`) throw new Error('handler exploded');
    if (pathname === `${basePath}/broken`) {
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('data: {"type":"start"}\n\n'));
          setImmediate(() => controller.error(new Error('stream broke')));
        },
      });
      return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
    }
    return Response.json({ method: request.method, path: pathname, body: await request.text() });
  };
  return Object.assign(handle, { basePath, matches });
}
