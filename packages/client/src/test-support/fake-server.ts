/** Test support: a fake `fetch` that records requests and answers from a handler with real `Response`s. */
export interface SeenRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
  signal: AbortSignal | undefined;
}

export function fakeFetch(handler: (request: SeenRequest) => Response | Promise<Response>) {
  const seen: SeenRequest[] = [];
  const fetchImpl = (async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((v, k) => {
      headers[k] = v;
    });
    const request: SeenRequest = {
      url: String(input),
      method: init.method ?? 'GET',
      headers,
      body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
      signal: init.signal ?? undefined,
    };
    seen.push(request);
    if (request.signal?.aborted) throw new DOMException('The operation was aborted.', 'AbortError');
    return handler(request);
  }) as typeof fetch;
  return { fetch: fetchImpl, seen };
}

export const jsonResponse = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

/**
 * A stream response like real fetch gives: the body errors with AbortError when the request signal fires.
 * `pieces` are sent first; with `hold: true` the body then stays open until aborted.
 */
export function streamResponse(
  pieces: Uint8Array[],
  { signal, hold = false, asstId = 'asst-1' }: { signal?: AbortSignal; hold?: boolean; asstId?: string | null } = {},
) {
  let i = 0;
  let cancelled = false;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      signal?.addEventListener('abort', () => controller.error(new DOMException('The operation was aborted.', 'AbortError')));
    },
    pull(controller) {
      if (i < pieces.length) controller.enqueue(pieces[i++]!);
      else if (!hold) controller.close();
      else return new Promise<void>(() => undefined);
    },
    cancel() {
      cancelled = true;
    },
  });
  const headers: Record<string, string> = { 'content-type': 'text/event-stream', 'x-vercel-ai-ui-message-stream': 'v1' };
  if (asstId !== null) headers['x-asst-id'] = asstId;
  return { response: new Response(body, { status: 200, headers }), isCancelled: () => cancelled };
}
