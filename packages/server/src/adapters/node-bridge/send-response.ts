import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AdapterErrorListener } from '../chat-handler-like.js';
import { closeOnUnreadBody } from './close-on-unread-body.js';
import { writeResponse } from './write-response.js';

/**
 * Writes a web `Response` as the answer to `req`. A request body left unread never keeps the connection
 * (see `closeOnUnreadBody`). Never rejects: a response stream that fails mid-way is reported through
 * `onError`.
 */
export async function sendResponse(
  req: IncomingMessage,
  res: ServerResponse,
  response: Response,
  onError?: AdapterErrorListener,
): Promise<void> {
  const closing = closeOnUnreadBody(req, res, response.status);
  if (closing) await closing;
  try {
    await writeResponse(response, res);
  } catch (error) {
    onError?.(error);
  }
}
