import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AdapterErrorListener } from '../chat-handler-like.js';
import { closeOnUnreadBody } from './close-on-unread-body.js';
import { writeResponse } from './write-response.js';

/**
 * Writes a web `Response` as the answer to `req`. A request body left unread never keeps the connection
 * (see `closeOnUnreadBody`). Never rejects: a response stream that fails mid-way is reported through
 * `onError`.
 */
export function sendResponse(
  req: IncomingMessage,
  res: ServerResponse,
  response: Response,
  onError?: AdapterErrorListener,
): Promise<void> {
  // Not an async function on purpose: nothing here holds `response` while its body is written, so once a
  // turn's body was taken as calls (`writeDirectBody`) the Response and its web stream can be collected.
  const closing = closeOnUnreadBody(req, res, response.status);
  if (!closing) return reported(writeResponse(response, res), onError);
  return closing.then(() => reported(writeResponse(response, res), onError));
}

function reported(writing: Promise<void>, onError: AdapterErrorListener | undefined): Promise<void> {
  return writing.catch((error: unknown) => void onError?.(error));
}
