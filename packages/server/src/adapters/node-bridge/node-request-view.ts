import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { RequestView } from '../../handler-dispatch.js';
import type { NodeRequest } from './incoming-message-to-request.js';
import { requestUrl } from './request-url.js';
import { clientClosed } from './client-closed.js';

/**
 * A GET as the chat routes read it, straight from the IncomingMessage: what `incomingMessageToRequest`
 * would give for it (same URL, same header values, no body: a GET's body is never passed on), without
 * building a `Request`, its `Headers` and its AbortController for every request. The signal is made when
 * a route first reads it and aborts, as the `Request`'s does, when the response closes before it finished.
 * It also carries the requests a `Request` cannot (a `TRACE`), so that the routes answer them as any other
 * method they do not serve. Throws a VALIDATION error for a URL `requestUrl` refuses (credentials).
 */
export function nodeRequestView(req: NodeRequest, res: ServerResponse, path: string | undefined): RequestView {
  const parsedUrl = requestUrl(req, path);
  return new NodeRequestView(req.method ?? 'GET', parsedUrl, new NodeHeadersView(req.headers), res);
}

// Classes rather than object literals: a getter or a method closing over the request, made anew for
// every request, cost more than everything else the view does (measured under load).

export class NodeRequestView implements RequestView {
  readonly url: string;
  private controller: AbortController | undefined = undefined;

  constructor(
    readonly method: string,
    readonly parsedUrl: URL,
    readonly headers: { get(name: string): string | null },
    private readonly res: ServerResponse,
  ) {
    this.url = parsedUrl.href;
  }

  get body(): ReadableStream<Uint8Array> | null {
    return null;
  }

  /** The peer's address: the socket's (behind a proxy, the proxy's). */
  get clientAddress(): string | undefined {
    return this.res.req?.socket?.remoteAddress;
  }

  get signal(): AbortSignal {
    if (this.controller === undefined) {
      const controller = new AbortController();
      this.controller = controller;
      const res = this.res;
      if (res.closed) {
        if (!res.writableFinished) controller.abort(clientClosed());
      } else {
        res.once('close', () => res.writableFinished || controller.abort(clientClosed()));
      }
    }
    return this.controller.signal;
  }
}

/** `Headers.get` over node's parsed headers: lower-cased names, repeated values joined with ", ". */
class NodeHeadersView {
  constructor(private readonly headers: IncomingHttpHeaders) {}

  get(name: string): string | null {
    const value = this.headers[name.toLowerCase()];
    if (value === undefined) return null;
    return Array.isArray(value) ? value.join(', ') : value;
  }
}
