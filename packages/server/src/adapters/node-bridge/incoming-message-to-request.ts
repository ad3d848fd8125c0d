import { ChatwireError } from '@chatwire/storage';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { requestUrl } from './request-url.js';
import { clientClosed } from './client-closed.js';

/** An IncomingMessage as frameworks hand it over: express adds `originalUrl`, body parsers add `body`. */
export type NodeRequest = IncomingMessage & { originalUrl?: string; body?: unknown };

export interface IncomingMessageToRequestOptions {
  /** Path and query to use instead of `req.url` (express passes `req.originalUrl`). */
  url?: string;
}

/**
 * Converts a node:http request into a web `Request`.
 *
 * - `request.signal` aborts when the response closes before it finished (the client went away).
 * - A body that a parser such as `express.json()` already consumed is reused (objects re-serialised as
 *   JSON); otherwise the body is streamed with backpressure.
 * - What a `Request` cannot carry (credentials in the URL, an invalid header) throws a VALIDATION error
 *   rather than the `Request` constructor's TypeError; the method must pass `isFetchMethod`.
 */
export function incomingMessageToRequest(
  req: NodeRequest,
  res: ServerResponse,
  options: IncomingMessageToRequestOptions = {},
): Request {
  const url = requestUrl(req, options.url);
  const headers = createHeaders(req);
  const controller = new AbortController();
  const onClose = (): void => {
    if (!res.writableFinished) controller.abort(clientClosed());
  };
  res.once('close', onClose);

  const method = req.method ?? 'GET';
  const init: RequestInit & { duplex?: 'half' } = { method, headers, signal: controller.signal };
  if (method !== 'GET' && method !== 'HEAD') {
    const parsed = parsedBody(req);
    if (parsed !== undefined) {
      headers.delete('transfer-encoding');
      headers.delete('content-encoding'); // body parsers inflate gzip
      if (parsed.json) headers.set('content-type', 'application/json');
      headers.set('content-length', String(parsed.bytes.byteLength));
      init.body = parsed.bytes;
    } else if (!req.readableEnded) {
      init.body = streamBody(req);
      init.duplex = 'half';
    }
  }
  return new Request(url, init);
}

/**
 * The request's headers as web `Headers`. A header `Headers` refuses (a value with NUL, CR or LF, which
 * Node's lenient parser or a middleware can let through) is a VALIDATION error naming it.
 */
export function createHeaders(req: NodeRequest): Headers {
  const headers = new Headers();
  for (const [key, value] of Object.entries(req.headers)) {
    if (key.startsWith(':') || value === undefined) continue; // HTTP/2 pseudo-headers
    for (const item of Array.isArray(value) ? value : [value]) {
      try {
        headers.append(key, item);
      } catch {
        throw new ChatwireError('VALIDATION', `The ${JSON.stringify(key)} header is not a valid HTTP header`, { details: { field: key } });
      }
    }
  }
  return headers;
}

/** The body a parser already read, or undefined when the stream is still ours to read. */
export function parsedBody(req: NodeRequest): { bytes: Uint8Array<ArrayBuffer>; json: boolean } | undefined {
  const consumed = req.readableEnded || (req as { _body?: unknown })._body === true;
  // Express 4 sets `req.body = {}` without reading anything: only trust `body` once the stream is consumed.
  if (req.body === undefined || !consumed) return undefined;
  const body = req.body;
  if (typeof body === 'string') return { bytes: new TextEncoder().encode(body), json: false };
  if (body instanceof Uint8Array) return { bytes: new Uint8Array(body), json: false }; // express.raw()
  return { bytes: new TextEncoder().encode(JSON.stringify(body)), json: true };
}

/** Streams the request body, pausing the socket while the reader is not keeping up. */
export function streamBody(req: NodeRequest): ReadableStream<Uint8Array> {
  let detach = (): void => {};
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        const onData = (chunk: Buffer): void => {
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((controller.desiredSize ?? 0) <= 0) req.pause();
        };
        const onEnd = (): void => {
          detach();
          controller.close();
        };
        const onError = (error: unknown): void => {
          detach();
          controller.error(error);
        };
        const onClose = (): void => {
          if (!req.readableEnded) onError(clientClosed());
        };
        detach = () => {
          req.off('data', onData);
          req.off('end', onEnd);
          req.off('error', onError);
          req.off('close', onClose);
        };
        req.on('data', onData);
        req.on('end', onEnd);
        req.on('error', onError);
        req.on('close', onClose);
      },
      pull() {
        req.resume();
      },
      cancel() {
        // The handler stopped reading (body too large or too slow): stop taking data off the socket. The
        // bridge closes the connection after the response instead of draining an upload nobody reads.
        detach();
        req.pause();
      },
    },
    new ByteLengthQueuingStrategy({ highWaterMark: 64 * 1024 }),
  );
}
