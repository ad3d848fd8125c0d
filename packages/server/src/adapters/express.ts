import type { ErrorRequestHandler, RequestHandler } from 'express';
import { jsonResponse } from '../error-response.js';
import type { AdapterErrorListener, ChatHandlerLike } from './chat-handler-like.js';
import { expressBodyError } from './express-body-error.js';
import { handleNodeRequest } from './node-bridge/handle-node-request.js';
import { pathnameOf } from './node-bridge/pathname-of.js';
import { sendResponse } from './node-bridge/send-response.js';

export type { ChatHandlerLike, AdapterErrorListener } from './chat-handler-like.js';

export interface ChatwireExpressOptions {
  /** Errors that could not become a response: the handler threw, or the response stream failed mid-way. */
  onError?: AdapterErrorListener;
}

/**
 * Express middleware (Express 5 and 4): `app.use(chatwireExpress(handler))`.
 *
 * Requests under the handler's base path are answered by the handler; everything else goes to `next()`.
 * Works before or after `express.json()`: an already parsed body is reused (add `chatwireExpressErrors`
 * after it so that a body the parser rejects gets chatwire's JSON error). The full `originalUrl` is
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

/**
 * Express error middleware that answers a body rejected by Express's own parser (`express.json()`
 * mounted before chatwire: invalid JSON, over its `limit`, unsupported charset, ...) with chatwire's JSON
 * error instead of Express's HTML page: `{ "error": { "code": "VALIDATION" | "PAYLOAD_TOO_LARGE", "message" } }`
 * with status 400 or 413. Only under the handler's base path; other errors and paths go to `next(err)`.
 *
 * ```ts
 * app.use(express.json());
 * app.use(chatwireExpress(handler));
 * app.use(chatwireExpressErrors(handler));
 * ```
 */
export function chatwireExpressErrors(handler: ChatHandlerLike, options: ChatwireExpressOptions = {}): ErrorRequestHandler {
  return (error: unknown, req, res, next) => {
    const answer = expressBodyError(error);
    if (answer === undefined || res.headersSent || !handler.matches(pathnameOf(req.originalUrl))) {
      next(error);
      return;
    }
    const response = jsonResponse(answer.status, { error: { code: answer.code, message: answer.message } });
    void sendResponse(req, res, response, options.onError);
  };
}
