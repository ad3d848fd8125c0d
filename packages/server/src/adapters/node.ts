import type { ServerResponse } from 'node:http';
import type { AdapterErrorListener, ChatHandlerLike } from './chat-handler-like.js';
import { handleNodeRequest } from './node-bridge/handle-node-request.js';
import type { NodeRequest } from './node-bridge/incoming-message-to-request.js';
import { pathnameOf } from './node-bridge/pathname-of.js';

export type { ChatHandlerLike, AdapterErrorListener } from './chat-handler-like.js';
export type { NodeRequest } from './node-bridge/incoming-message-to-request.js';

export interface NodeListenerOptions {
  /** Errors that could not become a response: the handler threw, or the response stream failed mid-way. */
  onError?: AdapterErrorListener;
}

/** A node:http request listener that also works as connect-style middleware (`next` for other routes). */
export type NodeListener = (req: NodeRequest, res: ServerResponse, next?: (error?: unknown) => void) => void;

/**
 * Mounts a chat handler on node:http: `http.createServer(toNodeListener(handler))`.
 *
 * Requests under the handler's base path are bridged to it (streamed both ways; a client disconnect
 * aborts the turn). Other paths call `next()` when given, otherwise the handler's 404 JSON answers them.
 */
export function toNodeListener(handler: ChatHandlerLike, options: NodeListenerOptions = {}): NodeListener {
  const bridgeOptions = options.onError === undefined ? {} : { onError: options.onError };
  return (req, res, next) => {
    const url = req.originalUrl ?? req.url ?? '/';
    if (next !== undefined && !handler.matches(pathnameOf(url))) {
      next();
      return;
    }
    void handleNodeRequest(handler, req, res, { ...bridgeOptions, url });
  };
}
