import type { JsonReply } from './json-reply.js';

/**
 * What the chat routes read of a request. A web `Request` is one; the node adapter passes a lighter view
 * of a GET (no body to stream, the signal made only when a route asks for it) so that small JSON answers
 * skip building a `Request` and a `Response` around them.
 */
export interface RequestView {
  readonly method: string;
  /** The absolute URL, as `Request.url`. */
  readonly url: string;
  /** The same URL parsed, when the caller already has it. */
  readonly parsedUrl?: URL;
  readonly headers: { get(name: string): string | null };
  /** Aborts when the client goes away before the answer was sent. */
  readonly signal: AbortSignal;
  readonly body: ReadableStream<Uint8Array> | null;
  /**
   * The body as chunks straight from the runtime's own stream, when the adapter has one (the node adapter,
   * for a body that is not JSON): what `bodyChunks(body, idleMs)` gives, without the web stream.
   */
  bodyChunks?(idleMs: number): AsyncGenerator<Uint8Array>;
  /** The client's address when the adapter knows it (the node and express adapters: the socket's peer). */
  readonly clientAddress?: string | undefined;
}

/** A route's answer: a JSON reply (written as is by the node adapter) or a `Response` (streams, 204). */
export type Reply = Response | JsonReply;

export type Dispatch = (request: RequestView) => Promise<Reply>;

/**
 * Where `createChatHandler` exposes its dispatch to the adapters of this package (a registered symbol, so
 * two copies of the package still recognise each other). Any other handler is called as a fetch function.
 */
export const DISPATCH: unique symbol = Symbol.for('chatwire.handler.dispatch.v1');
