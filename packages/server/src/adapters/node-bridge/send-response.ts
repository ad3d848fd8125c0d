import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AdapterErrorListener } from '../chat-handler-like.js';
import { closeAfterResponse, mustCloseAfter } from './close-after-response.js';
import { writeResponse } from './write-response.js';

/**
 * Writes a web `Response` as the answer to `req`. An error answer given before the request body has fully
 * arrived closes the connection once sent. Never rejects: a response stream that fails mid-way is
 * reported through `onError`.
 */
export async function sendResponse(
  req: IncomingMessage,
  res: ServerResponse,
  response: Response,
  onError?: AdapterErrorListener,
): Promise<void> {
  if (await mustCloseAfter(req, response.status)) closeAfterResponse(req, res);
  try {
    await writeResponse(response, res);
  } catch (error) {
    onError?.(error);
  }
}
