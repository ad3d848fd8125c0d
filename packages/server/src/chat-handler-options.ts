import type { ChatService, ChatServiceOptions } from '@chatwire/core';
import type { RecordStore } from '@chatwire/storage';
import type { TurnLimitsOptions } from '@chatwire/core/limits';
import type { JwtVerifierOptions, TokenVerifier } from './auth/index.js';
import type { CorsOptions } from './cors.js';
import type { RedisOption } from './redis-turn-sharing.js';
import type { ShareRouteOptions } from './routes/share-routes.js';

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
  /** Per-user tokens per UTC day (429 `QUOTA_EXCEEDED`); counted in Redis when `redis` is set, else read from the store's usage ledger (`ai-usage`) on a store shared across processes, else counted in this process. */
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
