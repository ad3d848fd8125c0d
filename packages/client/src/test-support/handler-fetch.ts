/** One request as the handler saw it, and what happened to its connection. */
export interface HandledRequest {
  method: string;
  /** The path under the base path, e.g. `/chat` or `/chats/abc/stop`. */
  path: string;
  body: unknown;
  status?: number;
}

/**
 * Test support: a `fetch` that calls a chat handler in-process the way a network connection would behave:
 * aborting the request's signal (or `dropAll()`, a closed tab) cancels the response body on the server side
 * (a disconnect) and fails the client's reads with `AbortError`. `events` lists, in order, each answer
 * (`POST /chat 200`) and each disconnect (`POST /chat closed`).
 */
export function handlerFetch(handler: (request: Request) => Promise<Response>, basePath = '/api/ai') {
  const seen: HandledRequest[] = [];
  const events: string[] = [];
  const open = new Set<(failure?: Error) => void>();
  let gate: { matches: (path: string) => boolean; opened: Promise<void> } | null = null;
  let faults: { matches: (path: string) => boolean; failures: Array<number | 'network'> } | null = null;
  const fetchImpl = (async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const request = new Request(input, init);
    const path = new URL(request.url).pathname.slice(basePath.length);
    const entry: HandledRequest = {
      method: request.method,
      path,
      body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
    };
    seen.push(entry);
    if (gate?.matches(path)) await gate.opened;
    const fault = faults?.matches(path) ? faults.failures.shift() : undefined;
    if (fault !== undefined) {
      entry.status = fault === 'network' ? 0 : fault;
      events.push(`${request.method} ${path} ${fault}`);
      if (fault === 'network') throw new TypeError('fetch failed');
      const error = { error: { code: fault >= 500 ? 'INTERNAL' : 'HTTP_ERROR', message: `injected ${fault}` } };
      return new Response(JSON.stringify(error), { status: fault, headers: { 'content-type': 'application/json' } });
    }
    const response = await handler(request);
    entry.status = response.status;
    events.push(`${request.method} ${path} ${response.status}`);
    if (!response.body) return response;
    const server = response.body.getReader();
    let closed = false;
    let clientController!: ReadableStreamDefaultController<Uint8Array>;
    const close = (failure: Error = new DOMException('The operation was aborted.', 'AbortError')) => {
      if (closed) return;
      closed = true;
      open.delete(close);
      events.push(`${request.method} ${path} closed`);
      void server.cancel().catch(() => undefined);
      try {
        clientController.error(failure);
      } catch {
        // already closed
      }
    };
    open.add(close);
    if (init.signal?.aborted) close();
    init.signal?.addEventListener('abort', () => close(), { once: true });
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        clientController = controller;
      },
      async pull(controller) {
        const next = await server.read().catch(() => ({ done: true as const, value: undefined }));
        if (closed) return;
        if (next.done) {
          closed = true;
          open.delete(close);
          controller.close();
        } else {
          controller.enqueue(next.value);
        }
      },
      cancel() {
        close();
      },
    });
    return new Response(body, { status: response.status, headers: response.headers });
  }) as typeof fetch;
  return {
    fetch: fetchImpl,
    seen,
    events,
    /** Holds requests whose path `matches` before they reach the handler, until the returned function is called. */
    holdRequests: (matches: (path: string) => boolean): (() => void) => {
      let open!: () => void;
      gate = { matches, opened: new Promise<void>((resolve) => (open = resolve)) };
      return () => {
        gate = null;
        open();
      };
    },
    /**
     * The next requests whose path `matches` fail without reaching the handler, one per entry of `failures`:
     * a status gets a JSON error response of that status, `'network'` rejects like a lost connection.
     */
    failRequests: (matches: (path: string) => boolean, failures: Array<number | 'network'>): void => {
      faults = { matches, failures: [...failures] };
    },
    /** Closes every open response like a closed tab: no stop request, just disconnects. */
    dropAll: () => {
      for (const close of [...open]) close();
    },
    /** Fails every open response's reads like a lost network (`TypeError: network error`); the server sees a disconnect. */
    failAll: () => {
      for (const close of [...open]) close(new TypeError('network error'));
    },
  };
}
