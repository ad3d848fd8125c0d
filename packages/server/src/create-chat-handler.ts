import { createChatService } from '@chatwire/core';
import { ChatwireError, DEFAULT_TURN_LEASE_TTL_MS, type Caller } from '@chatwire/storage';
import { createJwtVerifier, readBearerToken, type TokenVerifier } from './auth/index.js';
import { REMEMBERED } from './auth/verified-token-cache.js';
import type { ChatHandler, ChatHandlerOptions } from './chat-handler-options.js';
import { corsHeaders, preflightResponse } from './cors.js';
import { errorReply } from './error-response.js';
import { DISPATCH, type Dispatch, type Reply, type RequestView } from './handler-dispatch.js';
import { jsonReply, replyToResponse } from './json-reply.js';
import { UI_STREAM_HEADERS } from './http/ui-stream-headers.js';
import { withHeartbeat } from './http/with-heartbeat.js';
import { buildOpenApiDocument } from './openapi/build-openapi-document.js';
import { redisTurnSharing } from './redis-turn-sharing.js';
import { DEFAULT_MAX_BODY_BYTES, readJsonBody } from './read-json-body.js';
import { normalizeBasePath, resolveServiceOptions } from './resolve-service-options.js';
import { chatRoutes, matchChatRoute, type ChatRouteHandler } from './routes/chat-routes.js';
import { feedbackRoutes, matchFeedbackRoute } from './routes/feedback-routes.js';
import { branchRoutes, matchBranchRoute } from './routes/branch-route.js';
import { withoutTrailingSlashes } from './routes/route-params.js';
import { SHARED_ROUTE, shareRoutes } from './routes/share-routes.js';
import { SEARCH_ROUTE, searchRoutes } from './routes/search-route.js';
import { TOOLS_ROUTE, toolsRoutes } from './routes/tools-route.js';
import { ATTACHMENT_CONTENT_ROUTE, attachmentRoutes } from './routes/attachment-routes.js';

export type { ChatHandler, ChatHandlerOptions, HttpOptions, ServiceOptions } from './chat-handler-options.js';

/** Paths without an id served by the feature routes (the chat routes match their own). */
const OTHER_FIXED_ROUTES: ReadonlySet<string> = new Set([SEARCH_ROUTE, TOOLS_ROUTE].map((route) => `/${route}`));

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
  const leaseTtlMs = 'turnLeaseTtlMs' in options && options.turnLeaseTtlMs !== undefined ? options.turnLeaseTtlMs : DEFAULT_TURN_LEASE_TTL_MS;
  if (!(leaseTtlMs >= 1 && Number.isFinite(leaseTtlMs))) {
    throw new ChatwireError('CONFIGURATION', `turnLeaseTtlMs must be at least 1 millisecond, got ${String(leaseTtlMs)}`, { details: { option: 'turnLeaseTtlMs' } });
  }
  const sharing = options.redis
    ? redisTurnSharing(options.redis, (error) => onError(error, { stage: 'internal' }), { liveTtlMs: Math.min(10_000, leaseTtlMs) })
    : null;
  const ready = sharing?.ready ?? Promise.resolve();
  const service = 'service' in options ? options.service : createChatService(resolveServiceOptions(options, sharing, onError));
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

  const routes: Record<string, Record<string, ChatRouteHandler>> = {
    ...chatRoutes({ service, body, streamResponse, openApiReply }),
    ...feedbackRoutes(service, body),
    ...branchRoutes(service, body),
    ...searchRoutes(service),
    ...toolsRoutes(service),
    ...shares.routes,
    ...attachments.routes,
  };

  function match(pathname: string): { route: string; id?: string; subId?: string } | null {
    const rest = withoutTrailingSlashes(pathname.slice(basePath.length));
    if (OTHER_FIXED_ROUTES.has(rest)) return { route: rest.slice(1) };
    return matchChatRoute(rest) ?? matchFeedbackRoute(rest) ?? matchBranchRoute(rest) ?? shares.match(rest) ?? attachments.match(rest);
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
