import type { ClientRequest, Agent as HttpAgent, IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';

/**
 * A `fetch` for the provider packages' `fetch` option over `node:http`/`node:https` keep-alive agents.
 * It answers as the global fetch does for what those packages send (a string or byte body, any headers, an
 * abort signal): the same status, headers and body bytes (gzip, deflate and br answers decompressed), a
 * pre-aborted or aborted call rejects or errors the body with the signal's reason, a connection failure
 * rejects with `TypeError('fetch failed', { cause })` and a connection lost mid-body errors the body with
 * `TypeError('terminated', { cause })`, which the packages classify as they classify fetch's. The body is
 * read only as fast as it is consumed (the socket is paused while the stream's queue is full). Anything
 * else (a `Request` object, a stream, form or blob body, another protocol, a redirect answer) is handed
 * to the global fetch, looked up at call time, so its behaviour is fetch's own.
 */
export function createNodeHttpFetch(): typeof fetch {
  // Loaded on the first call, so that importing this module needs no node:http (other runtimes never call it).
  let loaded: Promise<Modules> | null = null;
  return async (input, init) => {
    const url = typeof input === 'string' ? safeUrl(input) : input instanceof URL ? input : null;
    const body = init?.body;
    const plainBody = body === undefined || body === null || typeof body === 'string' || body instanceof Uint8Array;
    if (url === null || (url.protocol !== 'http:' && url.protocol !== 'https:') || !plainBody || init?.redirect === 'manual' || init?.redirect === 'error') {
      return globalThis.fetch(input, init);
    }
    const modules = await (loaded ??= loadModules());
    return send(modules, url, init ?? {}, body as string | Uint8Array | null | undefined, () => globalThis.fetch(input, init));
  };
}

interface Modules {
  http: typeof import('node:http');
  https: typeof import('node:https');
  zlib: typeof import('node:zlib');
  agents: Record<'http:' | 'https:', HttpAgent>;
}

async function loadModules(): Promise<Modules> {
  const [http, https, zlib] = await Promise.all([import('node:http'), import('node:https'), import('node:zlib')]);
  return { http, https, zlib, agents: { 'http:': keepAliveAgent(new http.Agent({ keepAlive: true })), 'https:': keepAliveAgent(new https.Agent({ keepAlive: true })) } };
}

/** The server's `Keep-Alive: timeout=<s>` hint of the last answer on a socket, in ms. */
const KEEP_ALIVE_HINT = Symbol('keepAliveHint');
type HintedSocket = import('node:net').Socket & { [KEEP_ALIVE_HINT]?: number };

/**
 * Idle sockets are closed as the global fetch closes them, before the server would: 1 s before the server's
 * `Keep-Alive: timeout` hint, or after 4 s without one (so a call is not sent on a socket the server is
 * closing). A reused socket has no idle timer while it carries a call.
 */
function keepAliveAgent(agent: HttpAgent): HttpAgent {
  const idle = agent as unknown as {
    keepSocketAlive(socket: HintedSocket): boolean;
    reuseSocket(socket: HintedSocket, req: unknown): void;
  };
  const reuse = idle.reuseSocket.bind(agent);
  idle.keepSocketAlive = (socket) => {
    const hint = socket[KEEP_ALIVE_HINT];
    socket.setKeepAlive(true, 1000);
    socket.unref();
    socket.setTimeout(hint === undefined ? 4000 : Math.max(0, Math.min(hint - 1000, 600_000)));
    return hint === undefined || hint > 1000;
  };
  idle.reuseSocket = (socket, req) => {
    socket.setTimeout(0);
    reuse(socket, req);
  };
  return agent;
}

function rememberKeepAliveHint(res: IncomingMessage): void {
  const match = /timeout=(\d+)/i.exec(String(res.headers['keep-alive'] ?? ''));
  const socket = res.socket as HintedSocket | null;
  if (socket) socket[KEEP_ALIVE_HINT] = match ? Number(match[1]) * 1000 : undefined;
}

/** The request headers the global fetch adds when the caller did not set them. */
const FETCH_DEFAULT_HEADERS = [
  ['accept', '*/*'],
  ['accept-language', '*'],
  ['sec-fetch-mode', 'cors'],
  ['user-agent', 'node'],
  ['accept-encoding', 'gzip, deflate'],
] as const;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const NULL_BODY = new Set([101, 204, 205, 304]);

function safeUrl(input: string): URL | null {
  try {
    return new URL(input);
  } catch {
    return null;
  }
}

function send(
  modules: Modules,
  url: URL,
  init: RequestInit,
  body: string | Uint8Array | null | undefined,
  viaFetch: () => Promise<Response>,
): Promise<Response> {
  const agent = modules.agents[url.protocol as 'http:' | 'https:'];
  const signal = init.signal ?? undefined;
  if (signal?.aborted) return Promise.reject(signal.reason);
  const headers: OutgoingHttpHeaders = {};
  new Headers(init.headers).forEach((value, name) => void (headers[name] = value));
  for (const [name, value] of FETCH_DEFAULT_HEADERS) headers[name] ??= value;
  const payload = body === undefined || body === null ? null : typeof body === 'string' ? Buffer.from(body) : body;
  if (payload !== null) headers['content-length'] = payload.byteLength;
  if (payload !== null && typeof body === 'string' && headers['content-type'] === undefined) headers['content-type'] = 'text/plain;charset=UTF-8';
  const method = (init.method ?? 'GET').toUpperCase();
  const request = url.protocol === 'https:' ? modules.https.request : modules.http.request;
  const req = request(url, { method, headers, agent });
  const answer = answerOf(req, signal, method, init.redirect !== 'manual', (init as { [NODE_BODY_WANTED]?: unknown })[NODE_BODY_WANTED] === true, modules.zlib, url.href, viaFetch);
  req.end(payload ?? undefined);
  return answer;
}

const unsettled = (): void => {};

/**
 * The answer of a sent request. Made apart from `send` on purpose: the request's error listener and the
 * signal's abort listener live as long as the body, so they hold only the request and the call's settle
 * functions (dropped once answered), never the request payload, the call's `init` or the answer itself.
 */
function answerOf(
  req: ClientRequest,
  signal: AbortSignal | undefined,
  method: string,
  followRedirects: boolean,
  wanted: boolean,
  zlib: Modules['zlib'],
  href: string,
  viaFetch: () => Promise<Response>,
): Promise<Response> {
  // Made here, not in the executor: `viaFetch` (whose closure holds the call's `init` and payload) is then read
  // by no closure, so no listener's context keeps it once `call` is dropped.
  let call: { resolve: (response: Response | Promise<Response>) => void; reject: (reason: unknown) => void; viaFetch: () => Promise<Response> } | null = {
    resolve: unsettled,
    reject: unsettled,
    viaFetch,
  };
  return new Promise<Response>((resolve, reject) => {
    call!.resolve = resolve;
    call!.reject = reject;
    const onAbort = () => {
      const reason = signal!.reason;
      call?.reject(reason);
      call = null;
      req.destroy(reason instanceof Error ? reason : undefined);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    req.once('error', (error) => {
      signal?.removeEventListener('abort', onAbort);
      call?.reject(signal?.aborted ? signal.reason : new TypeError('fetch failed', { cause: error }));
      call = null;
    });
    req.once('response', (res) => {
      const answered = call;
      call = null;
      if (answered === null) return;
      rememberKeepAliveHint(res);
      const status = res.statusCode ?? 0;
      if (REDIRECTS.has(status) && res.headers.location !== undefined && followRedirects) {
        // The global fetch follows redirects by its own rules: this answer is dropped, the call is made again there.
        res.resume();
        signal?.removeEventListener('abort', onAbort);
        return void answered.resolve(answered.viaFetch());
      }
      const responseHeaders = new Headers();
      for (let i = 0; i < res.rawHeaders.length; i += 2) responseHeaders.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
      const nullBody = NULL_BODY.has(status) || method === 'HEAD';
      const onDone = () => signal?.removeEventListener('abort', onAbort);
      const lazy = nullBody || !wanted ? null : lazyBody(decoded(zlib, res), res, signal, onDone);
      const stream = nullBody ? null : (lazy?.stream ?? bodyStream(decoded(zlib, res), res, signal, onDone));
      if (nullBody) {
        res.resume();
        signal?.removeEventListener('abort', onAbort);
      }
      const response = new Response(stream, { status, statusText: res.statusMessage ?? '', headers: responseHeaders });
      Object.defineProperty(response, 'url', { value: href });
      if (lazy !== null) Object.defineProperty(response, NODE_BODY, { value: lazy.take });
      answered.resolve(response);
    });
  });
}

/**
 * Set to `true` on a call's `init` (`{ ...init, [NODE_BODY_WANTED]: true }`): the answer's body may then be
 * taken as a Node stream with `takeNodeBody`, before anything read it. Other fetches ignore the key.
 */
export const NODE_BODY_WANTED: unique symbol = Symbol.for('chatwire.nodeBodyWanted');
const NODE_BODY = Symbol('chatwire.nodeBody');

/**
 * An answer's body as a Node stream (decompressed), with what ends it: `res` (its 'aborted' and 'close'
 * before completion mean a lost connection), `signal` (the call's abort signal) and `done`, to be called
 * once the body ended, failed or was cancelled (it removes the call's listener from the signal).
 */
export interface NodeBody {
  source: Readable;
  res: IncomingMessage;
  signal: AbortSignal | undefined;
  done(): void;
}

/**
 * The body of an answer of `createNodeHttpFetch` to a call made with `NODE_BODY_WANTED`, as a Node stream,
 * when nothing read its web body yet (that body then stays empty and locked to nobody: never read it).
 * null for any other answer, or once its web body was read.
 */
export function takeNodeBody(response: Response): NodeBody | null {
  const take = (response as unknown as { [NODE_BODY]?: () => NodeBody | null })[NODE_BODY];
  return take === undefined ? null : take();
}

/**
 * The web body of a call made with `NODE_BODY_WANTED`: nothing is read before the first read of the web
 * stream (high-water mark 0), so `take` can hand the Node stream over untouched until then.
 */
function lazyBody(source: Readable, res: IncomingMessage, signal: AbortSignal | undefined, onDone: () => void): { stream: ReadableStream<Uint8Array>; take: () => NodeBody | null } {
  let state: 'idle' | 'web' | 'taken' = 'idle';
  let inner: ReadableStreamDefaultReader<Uint8Array> | null = null;
  const stream = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (state === 'taken') return controller.close();
        state = 'web';
        inner ??= bodyStream(source, res, signal, onDone).getReader();
        const r = await inner.read();
        if (r.done) controller.close();
        else controller.enqueue(r.value);
      },
      cancel(reason) {
        if (state === 'taken') return;
        if (inner !== null) return inner.cancel(reason);
        state = 'web';
        onDone();
        res.destroy();
      },
    },
    { highWaterMark: 0 },
  );
  const take = (): NodeBody | null => {
    if (state !== 'idle') return null;
    state = 'taken';
    return { source, res, signal, done: onDone };
  };
  return { stream, take };
}

/** The answer's bytes, decompressed as fetch does for gzip, deflate and br (other encodings pass as they are). */
function decoded(zlib: Modules['zlib'], res: IncomingMessage): Readable {
  const encoding = res.headers['content-encoding']?.trim().toLowerCase();
  const decoder =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? zlib.createGunzip()
      : encoding === 'deflate'
        ? zlib.createInflate()
        : encoding === 'br'
          ? zlib.createBrotliDecompress()
          : null;
  if (decoder === null) return res;
  res.on('error', (error) => decoder.destroy(error));
  return res.pipe(decoder);
}

function bodyStream(source: Readable, res: IncomingMessage, signal: AbortSignal | undefined, onDone: () => void): ReadableStream<Uint8Array> {
  let finished = false;
  let onAbort: (() => void) | undefined;
  // However the body ends, nothing of it stays on the signal (a signal shared by many calls would pile them up).
  const done = () => {
    if (onAbort) signal?.removeEventListener('abort', onAbort);
    onDone();
  };
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        const fail = (error: unknown) => {
          if (finished) return;
          finished = true;
          done();
          controller.error(bodyFailure(signal, error));
        };
        source.on('data', (chunk: Buffer) => {
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((controller.desiredSize ?? 0) <= 0) source.pause();
        });
        source.once('end', () => {
          if (finished) return;
          finished = true;
          done();
          controller.close();
        });
        source.once('error', fail);
        onConnectionLost(res, fail);
        onAbort = () => fail(signal!.reason);
        signal?.addEventListener('abort', onAbort, { once: true });
      },
      pull() {
        source.resume();
      },
      cancel() {
        finished = true;
        done();
        res.destroy();
      },
    },
    { highWaterMark: 65_536, size: (chunk) => chunk.byteLength },
  );
}

/**
 * The fetch of chatwire's own provider calls when the app gives none: `createNodeHttpFetch()` on Node while
 * `globalThis.fetch` is still the one it was when this was created; the global fetch, looked up at each
 * call, on other runtimes (Bun, Deno, Workers) and once something replaced it (a mock, a proxy, an
 * instrumentation), so whatever the app did to the global fetch still applies.
 */
export function createProviderFetch(): typeof fetch {
  const original = globalThis.fetch;
  const nodeFetch = isNode() ? createNodeHttpFetch() : null;
  return (input, init) => (nodeFetch !== null && globalThis.fetch === original ? nodeFetch(input, init) : globalThis.fetch(input, init));
}

function isNode(): boolean {
  const g = globalThis as { process?: { versions?: { node?: string } }; Bun?: unknown; Deno?: unknown; navigator?: { userAgent?: string } };
  return typeof g.process?.versions?.node === 'string' && g.Bun === undefined && g.Deno === undefined && g.navigator?.userAgent !== 'Cloudflare-Workers';
}

/** How a body read over node:http fails, as fetch's does: the call's abort reason, else `TypeError('terminated', { cause })`. */
export function bodyFailure(signal: AbortSignal | undefined, cause: unknown): unknown {
  return signal?.aborted ? signal.reason : new TypeError('terminated', { cause });
}

/** Calls `lost` once the answer's connection goes before its body completed (undici's "other side closed"). */
export function onConnectionLost(res: IncomingMessage, lost: (error: Error) => void): void {
  const closed = () => Object.assign(new Error('other side closed'), { code: 'ECONNRESET' });
  res.once('aborted', () => lost(closed()));
  res.once('close', () => {
    if (!res.complete) lost(closed());
  });
}
