import type { ServerResponse } from 'node:http';
import type { RequestView } from '../../handler-dispatch.js';
import { incomingMessageChunks } from './incoming-message-chunks.js';
import { createHeaders, parsedBody, streamBody, type NodeRequest } from './incoming-message-to-request.js';
import { NodeRequestView } from './node-request-view.js';
import { requestUrl } from './request-url.js';

/**
 * Whether the node adapter hands this request to the routes as a view that reads its body off the socket
 * rather than as a `Request`: a request with a body still unread. A body a parser such as `express.json()` or
 * `express.raw()` already read goes through `incomingMessageToRequest`, which carries it as parsed.
 */
export function viewsBody(req: NodeRequest): boolean {
  return req.method !== 'HEAD' && !req.readableEnded && parsedBody(req) === undefined;
}

/**
 * A request with a body, as the routes read it, straight from the IncomingMessage: the same URL, the same
 * `Headers` (a header value `Headers` refuses is a VALIDATION error, as for the `Request`), the same signal,
 * and the body either as the `ReadableStream` `incomingMessageToRequest` would give (made when first read)
 * or, for a route that takes chunks (an upload), read off the request without a web stream (`bodyChunks`).
 * Building the `Request` cost more than the rest of a small JSON POST (`POST /chats` through the node adapter:
 * ~340 µs of CPU a request, client included, against ~190 µs this way), and an upload of 1 MiB ~0.7 ms of
 * main-thread time in the web stream.
 */
export function nodeBodyView(req: NodeRequest, res: ServerResponse, path: string | undefined): RequestView {
  return new NodeBodyView(req, res, requestUrl(req, path));
}

class NodeBodyView extends NodeRequestView {
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
