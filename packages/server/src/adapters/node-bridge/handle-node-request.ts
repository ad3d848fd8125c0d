import type { ServerResponse } from 'node:http';
import { DISPATCH, type Dispatch, type Reply } from '../../handler-dispatch.js';
import type { AdapterErrorListener, ChatHandlerLike } from '../chat-handler-like.js';
import { incomingMessageToRequest, type NodeRequest } from './incoming-message-to-request.js';
import { nodeRequestView } from './node-request-view.js';
import { sendJsonReply } from './send-json-reply.js';
import { sendResponse } from './send-response.js';

export interface HandleNodeRequestOptions {
  /** Path and query to use instead of `req.url`. */
  url?: string;
  onError?: AdapterErrorListener;
}

/**
 * Runs one node:http request through a fetch-style handler: the single Node bridge behind the node and
 * express adapters. Never rejects: a throwing handler becomes a 500 JSON error (when headers are not sent
 * yet), a failing response stream ends the response; both are reported through `onError`. An error answer
 * given before the request body has fully arrived (401, 408, 413, ...) closes the connection once sent.
 *
 * A GET to a `createChatHandler` handler skips the web types: the handler's dispatch reads a view of the
 * IncomingMessage, and a JSON answer is written in one piece (same status, headers and body).
 */
export async function handleNodeRequest(
  handler: ChatHandlerLike,
  req: NodeRequest,
  res: ServerResponse,
  options: HandleNodeRequestOptions = {},
): Promise<void> {
  const dispatch = (handler as { [DISPATCH]?: Dispatch })[DISPATCH];
  let reply: Reply;
  try {
    const view = dispatch !== undefined && req.method === 'GET' ? nodeRequestView(req, res, options.url) : null;
    if (view !== null) reply = await dispatch!(view);
    else reply = await handler(incomingMessageToRequest(req, res, options.url === undefined ? {} : { url: options.url }));
  } catch (error) {
    options.onError?.(error);
    if (res.headersSent) {
      if (!res.writableEnded) res.end();
      return;
    }
    reply = internalError();
  }
  if (reply instanceof Response) return sendResponse(req, res, reply, options.onError);
  try {
    const sending = sendJsonReply(req, res, reply);
    if (sending) await sending;
  } catch (error) {
    options.onError?.(error);
    if (!res.writableEnded) res.destroy();
  }
}

function internalError(): Response {
  const body = JSON.stringify({ error: { code: 'INTERNAL', message: 'Internal server error' } });
  return new Response(body, {
    status: 500,
    headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) },
  });
}
