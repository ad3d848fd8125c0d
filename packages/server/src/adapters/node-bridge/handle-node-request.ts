import type { ServerResponse } from 'node:http';
import type { AdapterErrorListener, ChatHandlerLike } from '../chat-handler-like.js';
import { incomingMessageToRequest, type NodeRequest } from './incoming-message-to-request.js';
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
 */
export async function handleNodeRequest(
  handler: ChatHandlerLike,
  req: NodeRequest,
  res: ServerResponse,
  options: HandleNodeRequestOptions = {},
): Promise<void> {
  let response: Response;
  try {
    const request = incomingMessageToRequest(req, res, options.url === undefined ? {} : { url: options.url });
    response = await handler(request);
  } catch (error) {
    options.onError?.(error);
    if (res.headersSent) {
      if (!res.writableEnded) res.end();
      return;
    }
    response = internalError();
  }
  await sendResponse(req, res, response, options.onError);
}

function internalError(): Response {
  const body = JSON.stringify({ error: { code: 'INTERNAL', message: 'Internal server error' } });
  return new Response(body, {
    status: 500,
    headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) },
  });
}
