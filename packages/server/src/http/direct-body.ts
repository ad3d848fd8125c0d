/**
 * A response body whose bytes an adapter may take as calls instead of reading the web stream: the body
 * `withHeartbeat` makes around a turn's own response (core's `TurnOutput`, which offers its bytes under the
 * registered symbol `chatwire.pushSource`, see core's `turn/push-source.ts`). The Node adapter writes
 * such a body straight to the socket (`write-direct-body.ts`), keeping the heartbeat and the idle client
 * drop; every other adapter, and any other body, reads the web stream as before.
 */
export const PUSH_SOURCE: unique symbol = Symbol.for('chatwire.pushSource') as never;
const DIRECT_BODY = Symbol('chatwire.directBody');

export interface ByteSink {
  write(bytes: Uint8Array): void;
  /** Called once, after the last bytes. */
  end(): void;
}

/** What the taker holds once the bytes flow: cancelling it is cancelling the body. */
export interface ByteSource {
  cancel(reason?: unknown): void;
}

/** A stream offering its bytes to a sink (core's `PushSourceStream`, typed here on its own). */
export type PushStream = ReadableStream<Uint8Array> & { [PUSH_SOURCE]?: (sink: ByteSink) => ByteSource | null };

export interface DirectBody {
  /** Sends `: keep-alive\n\n` after this many ms without bytes, between events, while the client takes them (0: never). */
  heartbeatMs: number;
  /** Drops a client that took nothing (the socket did not drain) for this many ms (0: never). */
  clientIdleTimeoutMs: number;
  onIdle: (() => void) | undefined;
  /**
   * Hands the bytes to `sink` (those produced so far during this call), or returns null when the web
   * stream was read meanwhile (the sink then gets nothing). Once it returned a source, never read the stream.
   */
  attach(sink: ByteSink): ByteSource | null;
}

type DirectBodyStream = ReadableStream<Uint8Array> & { [DIRECT_BODY]?: () => DirectBody | null };

export function offerDirectBody(stream: ReadableStream<Uint8Array>, take: () => DirectBody | null): void {
  (stream as DirectBodyStream)[DIRECT_BODY] = take;
}

/** The body as a `DirectBody` when it offers one and nothing read it yet, else null. */
export function directBodyOf(body: ReadableStream<Uint8Array>): DirectBody | null {
  const take = (body as DirectBodyStream)[DIRECT_BODY];
  return take === undefined || body.locked ? null : take();
}
