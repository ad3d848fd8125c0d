import type { RequestHandler } from 'express';
import type { AdapterErrorListener, ChatHandlerLike } from './chat-handler-like.js';
import { handleNodeRequest } from './node-bridge/handle-node-request.js';
import { pathnameOf } from './node-bridge/pathname-of.js';

export type { ChatHandlerLike, AdapterErrorListener } from './chat-handler-like.js';

export interface ChatwireExpressOptions {
  /** Errors that could not become a response: the handler threw, or the response stream failed mid-way. */
  onError?: AdapterErrorListener;
}

/**
 * Express middleware (Express 5 and 4): `app.use(chatwireExpress(handler))`.
 *
 * Requests under the handler's base path are answered by the handler; everything else goes to `next()`.
 * Works before or after `express.json()`: an already parsed body is reused. The full `originalUrl` is
 * matched, so mounting under a prefix (`app.use('/x', ...)`) needs a handler whose basePath includes it.
 */
export function chatwireExpress(handler: ChatHandlerLike, options: ChatwireExpressOptions = {}): RequestHandler {
  const bridgeOptions = options.onError === undefined ? {} : { onError: options.onError };
  return (req, res, next) => {
    const url = req.originalUrl;
    if (!handler.matches(pathnameOf(url))) {
      next();
      return;
    }
    void handleNodeRequest(handler, req, res, { ...bridgeOptions, url });
  };
}
