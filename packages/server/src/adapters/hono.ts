import type { MiddlewareHandler } from 'hono';
import { jsonResponse } from '../error-response.js';
import type { ChatHandlerLike } from './chat-handler-like.js';

const CREDENTIALS = 'The request target and the Host header must not carry credentials (user:password@)';

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
    const url = new URL(c.req.url);
    if (!handler.matches(url.pathname)) {
      await next();
      return;
    }
    // @hono/node-server hands over an absolute-form target as is; a web Request refuses its credentials.
    if (url.username !== '' || url.password !== '') return jsonResponse(400, { error: { code: 'VALIDATION', message: CREDENTIALS } });
    const raw = c.req.raw;
    if (!raw.bodyUsed) return handler(raw);
    return handler(new Request(raw, { body: await c.req.arrayBuffer() }));
  };
}
