import type { ServerResponse } from 'node:http';
import type { AdapterErrorListener, ChatHandlerLike } from '../chat-handler-like.js';
import { closeAfterResponse, mustCloseAfter } from './close-after-response.js';
import { incomingMessageToRequest, type NodeRequest } from './incoming-message-to-request.js';
import { writeResponse } from './write-response.js';

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
    if (!res.headersSent && (await mustCloseAfter(req, 500))) closeAfterResponse(req, res);
    sendInternalError(res);
    return;
  }
  if (await mustCloseAfter(req, response.status)) closeAfterResponse(req, res);
  try {
    await writeResponse(response, res);
  } catch (error) {
    options.onError?.(error);
  }
}

function sendInternalError(res: ServerResponse): void {
  if (res.headersSent) {
    if (!res.writableEnded) res.end();
    return;
  }
  const body = JSON.stringify({ error: { code: 'INTERNAL', message: 'Internal server error' } });
  res.writeHead(500, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}
