import type { IncomingMessage, ServerResponse } from 'node:http';
import type { JsonReply } from '../../json-reply.js';
import { closeOnUnreadBody } from './close-on-unread-body.js';

/**
 * Writes a JSON reply as the answer to `req` in one write: the same status and headers `writeResponse`
 * would copy from its `Response`, plus a Content-Length (the body is known, so it is not chunked). A
 * request body left unread never keeps the connection (see `closeOnUnreadBody`). The reply is spent
 * (its headers gain the Content-Length).
 */
export function sendJsonReply(req: IncomingMessage, res: ServerResponse, reply: JsonReply): Promise<void> | undefined {
  const closing = closeOnUnreadBody(req, res, reply.status);
  if (closing) return closing.then(() => write(res, reply));
  write(res, reply);
  return undefined;
}

function write(res: ServerResponse, reply: JsonReply): void {
  if (res.destroyed) return;
  const headers = reply.headers;
  headers['content-length'] = String(Buffer.byteLength(reply.body));
  // A string body goes out in the same write as the head.
  res.writeHead(reply.status, headers);
  res.end(reply.body);
}
