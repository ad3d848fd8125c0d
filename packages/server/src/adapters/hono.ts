import type { MiddlewareHandler } from 'hono';
import type { ChatHandlerLike } from './chat-handler-like.js';

export type { ChatHandlerLike } from './chat-handler-like.js';

/**
 * Hono middleware: `app.use(chatwireHono(handler))`.
 *
 * Requests under the handler's base path are answered by the handler with `c.req.raw` (its signal is
 * the runtime's disconnect signal); everything else goes to `next()`. A body an earlier middleware
 * already read through `c.req.json()` and friends is taken from Hono's body cache.
 */
export function chatwireHono(handler: ChatHandlerLike): MiddlewareHandler {
  return async (c, next) => {
    if (!handler.matches(new URL(c.req.url).pathname)) {
      await next();
      return;
    }
    const raw = c.req.raw;
    if (!raw.bodyUsed) return handler(raw);
    return handler(new Request(raw, { body: await c.req.arrayBuffer() }));
  };
}
