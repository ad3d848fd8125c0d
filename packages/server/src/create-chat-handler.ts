import { createChatService, createModelRegistry, type ChatService, type ChatServiceOptions } from '@chatwire/core';
import { ChatwireError, createRecordStore, type Caller, type RecordStore } from '@chatwire/storage';
import { createMemoryDriver } from '@chatwire/storage/memory';
import { createJwtVerifier, readBearerToken, type JwtVerifierOptions, type TokenVerifier } from './auth/index.js';
import { corsHeaders, preflightResponse, type CorsOptions } from './cors.js';
import { errorResponse, jsonResponse } from './error-response.js';
import { UI_STREAM_HEADERS } from './http/ui-stream-headers.js';
import { withHeartbeat } from './http/with-heartbeat.js';
import { buildOpenApiDocument } from './openapi/build-openapi-document.js';
import { redisTurnSharing, type RedisOption, type TurnSharing } from './redis-turn-sharing.js';
import { createTurnLimits, type TurnLimitsOptions } from '@chatwire/core/limits';
import { DEFAULT_MAX_BODY_BYTES, readJsonBody } from './read-json-body.js';

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
  request: Request;
  caller: Caller;
  token: string;
  id: string | undefined;
  body: () => Promise<unknown>;
}

type RouteHandler = (context: RouteContext) => Promise<Response>;

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
  const cors = options.cors || null;
  const bodyOptions = options.bodyTimeoutMs === undefined ? {} : { timeoutMs: options.bodyTimeoutMs };
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
  const openApiResponse = (): Response => jsonResponse(200, (openApi ??= buildOpenApiDocument({ basePath })));

  const routes: Record<string, Record<string, RouteHandler>> = {
    chats: {
      GET: async ({ request, caller }) => {
        const params = new URL(request.url).searchParams;
        return jsonResponse(200, await service.listChats(caller, { limit: params.get('limit'), cursor: params.get('cursor') }));
      },
      POST: async ({ caller, body }) => jsonResponse(201, { chat: await service.createChat(caller, await body()) }),
    },
    'chats/:id': {
      GET: async ({ caller, id }) => jsonResponse(200, await service.getChat(caller, id!)),
      PATCH: async ({ caller, id, body }) => jsonResponse(200, { chat: await service.renameChat(caller, id!, await body()) }),
      DELETE: async ({ caller, id }) => jsonResponse(200, { deleted: await service.deleteChat(caller, id!) }),
    },
    'chats/:id/stop': {
      POST: async ({ caller, id }) => jsonResponse(200, await service.stopTurn(caller, id!)),
    },
    'chats/:id/stream': {
      GET: async ({ request, caller, id }) => {
        const turn = await service.resumeTurn(caller, id!, { signal: request.signal });
        return turn ? streamResponse(turn) : new Response(null, { status: 204 });
      },
    },
    models: {
      GET: async ({ caller }) => jsonResponse(200, { models: await service.listModels(caller) }),
    },
    usage: {
      GET: async ({ request, caller }) => {
        const params = new URL(request.url).searchParams;
        return jsonResponse(200, await service.usage(caller, { from: params.get('from'), to: params.get('to') }));
      },
    },
    'openapi.json': {
      GET: async () => openApiResponse(),
    },
    chat: {
      POST: async ({ request, caller, token, body }) =>
        streamResponse(await service.streamTurn(caller, await body(), { signal: request.signal, authToken: token })),
    },
  };

  function match(pathname: string): { route: string; id?: string } | null {
    const rest = withoutTrailingSlashes(pathname.slice(basePath.length));
    if (rest === '/chats') return { route: 'chats' };
    if (rest === '/chat') return { route: 'chat' };
    if (rest === '/models') return { route: 'models' };
    if (rest === '/usage') return { route: 'usage' };
    if (rest === '/openapi.json') return { route: 'openapi.json' };
    const found = /^\/chats\/([^/]+)(\/stop|\/stream)?$/.exec(rest);
    if (found) return { route: `chats/:id${found[2] ?? ''}`, id: safeDecode(found[1]!) };
    return null;
  }

  async function authenticate(request: Request): Promise<{ caller: Caller; token: string }> {
    const token = readBearerToken(request.headers.get('authorization'));
    if (!token) throw new ChatwireError('UNAUTHORIZED', 'Missing or invalid bearer token');
    try {
      return { caller: await verify(token), token };
    } catch (error) {
      if (ChatwireError.is(error, 'UNAUTHORIZED')) throw error;
      throw new ChatwireError('UNAUTHORIZED', 'Missing or invalid bearer token', { cause: error });
    }
  }

  async function handle(request: Request): Promise<Response> {
    await ready;
    const { pathname } = new URL(request.url);
    if (cors && request.method === 'OPTIONS') return preflightResponse(cors, request);
    if (!matches(pathname)) throw new ChatwireError('NOT_FOUND', `No route for ${request.method} ${pathname}`);
    const found = match(pathname);
    if (!found) throw new ChatwireError('NOT_FOUND', `No route for ${request.method} ${pathname}`);
    // The description of the routes holds no data: it is served without a token.
    if (found.route === 'openapi.json' && request.method === 'GET') return openApiResponse();
    const methods = routes[found.route]!;
    const route = methods[request.method];
    if (!route) {
      throw new ChatwireError('METHOD_NOT_ALLOWED', `${request.method} is not allowed on ${pathname}`, {
        details: { allow: Object.keys(methods).join(', ') },
      });
    }
    const { caller, token } = await authenticate(request);
    return route({ request, caller, token, id: found.id, body: () => readJsonBody(request, maxBodyBytes, bodyOptions) });
  }

  function matches(pathname: string): boolean {
    return pathname === basePath || pathname.startsWith(`${basePath}/`);
  }

  const handler = async (request: Request): Promise<Response> => {
    let response: Response;
    try {
      response = await handle(request);
    } catch (error) {
      response = errorResponse(error, (e) => onError(e, { stage: 'internal' }));
    }
    if (cors) for (const [name, value] of Object.entries(corsHeaders(cors, request))) response.headers.set(name, value);
    return response;
  };
  return Object.assign(handler, {
    basePath,
    service,
    matches,
    ready: () => ready,
    close: async () => sharing?.close(),
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
