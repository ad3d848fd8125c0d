import { createChatService, createModelRegistry, type ChatService, type ChatServiceOptions } from '@chatwire/core';
import { ChatwireError, createRecordStore, type Caller, type RecordStore } from '@chatwire/storage';
import { createMemoryDriver } from '@chatwire/storage/memory';
import { createJwtVerifier, readBearerToken, type JwtVerifierOptions, type TokenVerifier } from './auth/index.js';
import { REMEMBERED } from './auth/verified-token-cache.js';
import { corsHeaders, preflightResponse, type CorsOptions } from './cors.js';
import { errorReply } from './error-response.js';
import { DISPATCH, type Dispatch, type Reply, type RequestView } from './handler-dispatch.js';
import { jsonReply, replyToResponse } from './json-reply.js';
import { UI_STREAM_HEADERS } from './http/ui-stream-headers.js';
import { withHeartbeat } from './http/with-heartbeat.js';
import { buildOpenApiDocument } from './openapi/build-openapi-document.js';
import { redisTurnSharing, type RedisOption, type TurnSharing } from './redis-turn-sharing.js';
import { createTurnLimits, type TurnLimitsOptions } from '@chatwire/core/limits';
import { DEFAULT_MAX_BODY_BYTES, readJsonBody } from './read-json-body.js';
import { feedbackRoutes, matchFeedbackRoute } from './routes/feedback-routes.js';
import { branchRoutes, matchBranchRoute } from './routes/branch-route.js';
import { SHARED_ROUTE, shareRoutes, type ShareRouteOptions } from './routes/share-routes.js';
import { SEARCH_ROUTE, searchRoutes } from './routes/search-route.js';
import { TOOLS_ROUTE, toolsRoutes } from './routes/tools-route.js';
import { ATTACHMENT_CONTENT_ROUTE, attachmentRoutes } from './routes/attachment-routes.js';

export interface HttpOptions {
  /** JWT verification (HS256 secret, public key or JWKS URL), or your own `verifyToken`. */
  auth: JwtVerifierOptions | { verifyToken: TokenVerifier };
  /** Base path of the routes (default `/api/ai`). */
  basePath?: string;
  /** Larger request bodies get 413 (default 1 MiB). */
  maxBodyBytes?: number;
  /** Off by default. */
  cors?: CorsOptions | false;
  /** A request body may take at most this long to arrive; slower ones get 408 (default 30 s, 0: no limit). */
  bodyTimeoutMs?: number;
  /** An SSE comment (`: keep-alive`) after this much silence on a stream (default 15 s, 0: never). */
  heartbeatMs?: number;
  /** A client that reads nothing of its stream for this long is dropped like a disconnect (default 60 s, 0: never). */
  clientIdleTimeoutMs?: number;
  /**
   * Share running turns across processes through Redis (resume on any process, stop from any process).
   * Without it, turns are resumable in the process that runs them.
   */
  redis?: RedisOption;
  /** Per-user turns per minute (429 `RATE_LIMITED`); counted in Redis when `redis` is set, else in this process. */
  turnsPerMinute?: number;
  /** Per-user tokens per UTC day (429 `QUOTA_EXCEEDED`); counted in Redis when `redis` is set, else read from the store's turn rows. */
  tokensPerDay?: number;
  /** Per-user overrides of both (plans, roles); `null` lifts a limit. */
  limitsFor?: TurnLimitsOptions['limitsFor'];
  /** With `sharing` on: the link `POST /chats/:id/shares` hands out for a token (default: this handler's `GET /shared/:token`). */
  shareUrl?: ShareRouteOptions['shareUrl'];
  /**
   * The client address `GET /shared/:token` is rate-limited by. Default: the socket's peer address (node and
   * express adapters; no header is trusted, so behind a proxy every reader shares the proxy's budget); other
   * runtimes, or a trusted proxy's `X-Forwarded-For`, need this function.
   */
  clientAddress?: ShareRouteOptions['clientAddress'];
}

/** The chat service's options; `store` defaults to an in-memory store and `models` to the demo-less registry. */
export type ServiceOptions = Omit<ChatServiceOptions, 'store' | 'models'> & {
  /** Where chats live (default: in this process's memory, gone on restart). */
  store?: RecordStore;
  models?: ChatServiceOptions['models'];
};

export type ChatHandlerOptions = HttpOptions & (ServiceOptions | { service: ChatService; onError?: ChatServiceOptions['onError'] });

export type ChatHandler = ((request: Request) => Promise<Response>) & {
  readonly basePath: string;
  readonly service: ChatService;
  /** Resolves once the handler can serve (Redis connected); rejects with a CONFIGURATION error naming what failed. */
  ready(): Promise<void>;
  /** Closes what the handler opened (Redis connections). */
  close(): Promise<void>;
  /** True when `pathname` is under the base path; adapters let everything else fall through to the app. */
  matches(pathname: string): boolean;
};

interface RouteContext {
  request: RequestView;
  url: URL;
  caller: Caller;
  token: string;
  id: string | undefined;
  subId?: string | undefined;
}

type RouteHandler = (context: RouteContext) => Promise<Reply>;

/** The routes without an id, by path under the base path (shared answers of `match`). */
const FIXED_ROUTES: ReadonlyMap<string, { route: string; id?: string }> = new Map(
  ['chats', 'chat', 'models', 'usage', 'openapi.json', SEARCH_ROUTE, TOOLS_ROUTE].map((route) => [`/${route}`, { route }]),
);

function normalizeBasePath(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  return trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
}

/**
 * The chat routes as one Web-standard fetch handler (DESIGN.md "HTTP contract"). Adapters for node:http,
 * express and hono only convert types around it.
 */
export function createChatHandler(options: ChatHandlerOptions): ChatHandler {
  const report = options.onError ?? (() => undefined);
  const onError: typeof report = (error, context) => {
    try {
      report(error, context);
    } catch {
      // A throwing onError must not turn an answer into a crash.
    }
  };
  // A reader of a turn whose process died learns it when the producer's liveness key expires: no later than
  // the chat's lease, so the reader's error and the chat's release come together.
  const leaseTtlMs = 'turnLeaseTtlMs' in options && options.turnLeaseTtlMs !== undefined ? options.turnLeaseTtlMs : 15_000;
  const sharing = options.redis
    ? redisTurnSharing(options.redis, (error) => onError(error, { stage: 'internal' }), { liveTtlMs: Math.min(10_000, leaseTtlMs) })
    : null;
  const ready = sharing?.ready ?? Promise.resolve();
  const service = 'service' in options ? options.service : createChatService(serviceOptions(options, sharing, onError));
  const basePath = normalizeBasePath(options.basePath ?? '/api/ai');
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const verify: TokenVerifier = 'verifyToken' in options.auth ? options.auth.verifyToken : createJwtVerifier(options.auth);
  /** The caller of a token our own verifier checked before and whose exp/nbf still hold (no promise needed). */
  const remembered = (verify as { [REMEMBERED]?: (token: string) => Caller | undefined })[REMEMBERED];
  const cors = options.cors || null;
  const bodyOptions = options.bodyTimeoutMs === undefined ? {} : { timeoutMs: options.bodyTimeoutMs };
  const body = (request: RequestView): Promise<unknown> => readJsonBody(request, maxBodyBytes, bodyOptions);
  const heartbeat = {
    ...(options.heartbeatMs === undefined ? {} : { heartbeatMs: options.heartbeatMs }),
    ...(options.clientIdleTimeoutMs === undefined ? {} : { clientIdleTimeoutMs: options.clientIdleTimeoutMs }),
  };
  const streamResponse = (turn: { assistantMessageId: string; stream: ReadableStream<Uint8Array> }): Response =>
    new Response(withHeartbeat(turn.stream, heartbeat), {
      status: 200,
      headers: { ...UI_STREAM_HEADERS, 'x-asst-id': turn.assistantMessageId },
    });
  let openApi: object | undefined;
  const openApiReply = (): Reply => jsonReply(200, (openApi ??= buildOpenApiDocument({ basePath })));
  const attachments = attachmentRoutes(() => service.attachments, { idleMs: options.bodyTimeoutMs ?? 30_000 });
  const shares = shareRoutes(service, body, { basePath, shareUrl: options.shareUrl, clientAddress: options.clientAddress, report: (error) => onError(error, { stage: 'internal' }) });

  const routes: Record<string, Record<string, RouteHandler>> = {
    chats: {
      GET: async ({ url, caller }) => {
        const params = url.searchParams;
        return jsonReply(200, await service.listChats(caller, { limit: params.get('limit'), cursor: params.get('cursor') }));
      },
      POST: async ({ request, caller }) => jsonReply(201, { chat: await service.createChat(caller, await body(request)) }),
    },
    'chats/:id': {
      GET: async ({ caller, id }) => jsonReply(200, await service.getChat(caller, id!)),
      PATCH: async ({ request, caller, id }) => jsonReply(200, { chat: await service.renameChat(caller, id!, await body(request)) }),
      DELETE: async ({ caller, id }) => jsonReply(200, { deleted: await service.deleteChat(caller, id!) }),
    },
    'chats/:id/stop': {
      POST: async ({ caller, id }) => jsonReply(200, await service.stopTurn(caller, id!)),
    },
    'chats/:id/stream': {
      GET: async ({ request, caller, id }) => {
        const turn = await service.resumeTurn(caller, id!, { signal: request.signal });
        return turn ? streamResponse(turn) : new Response(null, { status: 204 });
      },
    },
    models: {
      GET: async ({ caller }) => jsonReply(200, { models: await service.listModels(caller) }),
    },
    usage: {
      GET: async ({ url, caller }) => {
        const params = url.searchParams;
        return jsonReply(200, await service.usage(caller, { from: params.get('from'), to: params.get('to') }));
      },
    },
    'openapi.json': {
      GET: async () => openApiReply(),
    },
    ...feedbackRoutes(service, body),
    ...branchRoutes(service, body),
    ...searchRoutes(service),
    ...toolsRoutes(service),
    ...shares.routes,
    ...attachments.routes,
    chat: {
      POST: async ({ request, caller, token }) =>
        streamResponse(await service.streamTurn(caller, await body(request), { signal: request.signal, authToken: token })),
    },
  };

  function match(pathname: string): { route: string; id?: string; subId?: string } | null {
    const rest = withoutTrailingSlashes(pathname.slice(basePath.length));
    const fixed = FIXED_ROUTES.get(rest);
    if (fixed !== undefined) return fixed;
    const found = /^\/chats\/([^/]+)(\/stop|\/stream)?$/.exec(rest);
    if (found) return { route: `chats/:id${found[2] ?? ''}`, id: safeDecode(found[1]!) };
    return matchFeedbackRoute(rest) ?? matchBranchRoute(rest) ?? shares.match(rest) ?? attachments.match(rest);
  }

  async function authenticate(token: string | null): Promise<Caller> {
    if (!token) throw new ChatwireError('UNAUTHORIZED', 'Missing or invalid bearer token');
    try {
      return await verify(token);
    } catch (error) {
      if (ChatwireError.is(error, 'UNAUTHORIZED')) throw error;
      throw new ChatwireError('UNAUTHORIZED', 'Missing or invalid bearer token', { cause: error });
    }
  }

  // Until Redis is connected every request waits for it (and fails with its error); afterwards none does.
  let isReady = sharing === null;
  ready.then(() => (isReady = true)).catch(() => undefined);

  async function handle(request: RequestView): Promise<Reply> {
    if (!isReady) await ready;
    const url = request.parsedUrl ?? new URL(request.url);
    const { pathname } = url;
    if (cors && request.method === 'OPTIONS') return preflightResponse(cors, request);
    if (!matches(pathname)) throw new ChatwireError('NOT_FOUND', `No route for ${request.method} ${pathname}`);
    const found = match(pathname);
    if (!found) throw new ChatwireError('NOT_FOUND', `No route for ${request.method} ${pathname}`);
    // The description of the routes holds no data: it is served without a token.
    if (found.route === 'openapi.json' && request.method === 'GET') return openApiReply();
    // A shared chat is read without a token.
    if (found.route === SHARED_ROUTE) return shares.readShared(request, found.id!);
    // Attachment bytes behind a signed URL (`<img src>`) are read without a token.
    if (found.route === ATTACHMENT_CONTENT_ROUTE && request.method === 'GET' && url.searchParams.has('sig')) return attachments.readSigned(url, found.id!);
    const methods = routes[found.route]!;
    const route = methods[request.method];
    if (!route) {
      throw new ChatwireError('METHOD_NOT_ALLOWED', `${request.method} is not allowed on ${pathname}`, {
        details: { allow: Object.keys(methods).join(', ') },
      });
    }
    const token = readBearerToken(request.headers.get('authorization'));
    const caller = (token !== null ? remembered?.(token) : undefined) ?? (await authenticate(token));
    return route({ request, url, caller, token: token!, id: found.id, subId: found.subId });
  }

  const under = `${basePath}/`;
  function matches(pathname: string): boolean {
    return pathname === basePath || pathname.startsWith(under);
  }

  const reportInternal = (error: unknown) => onError(error, { stage: 'internal' });
  /** Every route's answer, errors included, with the CORS headers; the node adapter calls this directly. */
  const dispatch: Dispatch = async (request) => {
    let reply: Reply;
    try {
      reply = await handle(request);
    } catch (error) {
      reply = errorReply(error, reportInternal);
    }
    if (cors) {
      const headers = corsHeaders(cors, request);
      if (reply instanceof Response) for (const [name, value] of Object.entries(headers)) reply.headers.set(name, value);
      else Object.assign(reply.headers, headers);
    }
    return reply;
  };
  const handler = async (request: Request): Promise<Response> => {
    const reply = await dispatch(request);
    return reply instanceof Response ? reply : replyToResponse(reply);
  };
  return Object.assign(handler, {
    basePath,
    service,
    matches,
    ready: () => ready,
    close: async () => sharing?.close(),
    [DISPATCH]: dispatch,
  });
}

/** The service's options: defaults for the store and models, Redis turn sharing, limits from the HTTP options. */
function serviceOptions(
  options: ServiceOptions & HttpOptions,
  sharing: TurnSharing | null,
  onError: NonNullable<ChatServiceOptions['onError']>,
): ChatServiceOptions {
  const store = options.store ?? createRecordStore({ driver: createMemoryDriver() });
  const { turnsPerMinute, tokensPerDay, limitsFor } = options;
  const limited = turnsPerMinute !== undefined || tokensPerDay !== undefined || limitsFor !== undefined;
  const limits =
    options.limits ??
    (limited
      ? createTurnLimits({
          turnsPerMinute,
          tokensPerDay,
          limitsFor,
          // Tokens are read from the turn rows only where other processes write them too.
          ...(store.capabilities.sharedLeases ? { store } : {}),
          ...(sharing ? { redis: sharing.client } : {}),
          onError: (error) => onError(error, { stage: 'internal' }),
        })
      : undefined);
  return {
    ...options,
    attachments: { basePath: normalizeBasePath(options.basePath ?? '/api/ai'), ...options.attachments },
    store,
    models: options.models ?? createModelRegistry(),
    ...(sharing ? { hub: sharing.hub, bus: sharing.bus } : {}),
    ...(limits ? { limits } : {}),
  };
}

/**
 * `path` without trailing slashes. A loop, not `/\/+$/`: that regex backtracks quadratically on a long
 * run of slashes that does not end the path, which an unauthenticated request could use to stall the
 * event loop.
 */
function withoutTrailingSlashes(path: string): string {
  let end = path.length;
  while (end > 0 && path.charCodeAt(end - 1) === 47 /* '/' */) end--;
  return path.slice(0, end);
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
