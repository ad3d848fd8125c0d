import type { ServerResponse } from 'node:http';
import type { RequestView } from '../../handler-dispatch.js';
import { incomingMessageChunks } from './incoming-message-chunks.js';
import { createHeaders, parsedBody, streamBody, type NodeRequest } from './incoming-message-to-request.js';
import { NodeRequestView } from './node-request-view.js';
import { requestUrl } from './request-url.js';

/**
 * Whether the node adapter hands this request to the routes as a view that reads its body off the socket:
 * a POST whose body is still unread and is not JSON (an upload: raw bytes or multipart). JSON bodies, and
 * bodies a parser such as `express.raw()` already read, go through `incomingMessageToRequest` as before.
 */
export function readsOwnBody(req: NodeRequest): boolean {
  if (req.method !== 'POST' || req.readableEnded || parsedBody(req) !== undefined) return false;
  const type = req.headers['content-type'];
  return type !== undefined && !/^\s*application\/json\b/i.test(type);
}

/**
 * A request with a body, as the routes read it, straight from the IncomingMessage: the same URL, the same
 * `Headers` (a header value `Headers` refuses is a VALIDATION error, as for the `Request`), the same signal,
 * and the body either as the `ReadableStream` `incomingMessageToRequest` would give (made when first read)
 * or, for a route that takes chunks, read off the request without a web stream (`bodyChunks`). An upload of
 * 1 MiB through the `Request` spent ~0.7 ms of main-thread time in the web stream and the `Request` alone
 * (bench/README, "Uploads").
 */
export function nodeUploadView(req: NodeRequest, res: ServerResponse, path: string | undefined): RequestView {
  return new NodeUploadView(req, res, requestUrl(req, path));
}

class NodeUploadView extends NodeRequestView {
  /** How the body is being read: the two ways take the same bytes, so only the first one asked for gets them. */
  private taken: ReadableStream<Uint8Array> | 'chunks' | null = null;

  constructor(
    private readonly req: NodeRequest,
    res: ServerResponse,
    parsedUrl: URL,
  ) {
    super(req.method ?? 'POST', parsedUrl, createHeaders(req), res);
  }

  /** The body as the `Request` would carry it (made when first read); null once `bodyChunks` took it. */
  override get body(): ReadableStream<Uint8Array> | null {
    if (this.taken === null) this.taken = streamBody(this.req);
    return this.taken === 'chunks' ? null : this.taken;
  }

  bodyChunks(idleMs: number): AsyncGenerator<Uint8Array> {
    if (this.taken !== null) throw new Error('The request body was already taken');
    this.taken = 'chunks';
    return incomingMessageChunks(this.req, idleMs);
  }
}
