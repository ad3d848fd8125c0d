import { ChatwireError } from '@chatwire/storage';
import type { ServerResponse } from 'node:http';
import { errorReply, STATUS_BY_CODE } from '../../error-response.js';
import { DISPATCH, type Dispatch, type Reply } from '../../handler-dispatch.js';
import type { AdapterErrorListener, ChatHandlerLike } from '../chat-handler-like.js';
import { isFetchMethod } from './fetch-method.js';
import { incomingMessageToRequest, type NodeRequest } from './incoming-message-to-request.js';
import { nodeRequestView } from './node-request-view.js';
import { nodeBodyView, viewsBody } from './node-body-view.js';
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
 * IncomingMessage, and a JSON answer is written in one piece (same status, headers and body). So does any
 * other request whose body no parser read yet: the routes read it off the request (`nodeBodyView`).
 *
 * No request Node accepted becomes a 500 for being one a web `Request` cannot carry: a forbidden method
 * (`TRACE`) goes through the same view, so the routes answer it as any method they do not serve (405 with
 * `Allow`, or 404); credentials in the URL, a target that is no URL or a header `Headers` refuses are a 400
 * `VALIDATION` answer.
 */
export async function handleNodeRequest(
  handler: ChatHandlerLike,
  req: NodeRequest,
  res: ServerResponse,
  options: HandleNodeRequestOptions = {},
): Promise<void> {
  const dispatch = (handler as { [DISPATCH]?: Dispatch })[DISPATCH];
  const method = req.method ?? 'GET';
  const fetchable = isFetchMethod(method);
  let reply: Reply;
  try {
    if (dispatch !== undefined && (method === 'GET' || !fetchable)) reply = await dispatch(nodeRequestView(req, res, options.url));
    else if (dispatch !== undefined && viewsBody(req)) reply = await dispatch(nodeBodyView(req, res, options.url));
    else if (!fetchable) reply = methodNotAllowed(method);
    else reply = await handler(incomingMessageToRequest(req, res, options.url === undefined ? {} : { url: options.url }));
  } catch (error) {
    if (isClientFault(error)) {
      // A request Node accepted that no web Request can carry (credentials in its URL, a header Headers refuses).
      reply = errorReply(error, () => undefined);
    } else {
      options.onError?.(error);
      if (res.headersSent) {
        if (!res.writableEnded) res.end();
        return;
      }
      reply = internalError();
    }
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

function isClientFault(error: unknown): error is ChatwireError {
  return ChatwireError.is(error) && STATUS_BY_CODE[error.code] < 500;
}

/**
 * A method no web `Request` carries, for a handler that only takes a `Request`: 405 with an empty `Allow`
 * (this adapter cannot know the handler's methods; a `createChatHandler` handler answers with its own).
 */
function methodNotAllowed(method: string): Reply {
  return errorReply(new ChatwireError('METHOD_NOT_ALLOWED', `${method} is not allowed`, { details: { allow: '' } }), () => undefined);
}

function internalError(): Response {
  const body = JSON.stringify({ error: { code: 'INTERNAL', message: 'Internal server error' } });
  return new Response(body, {
    status: 500,
    headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) },
  });
}
