/**
 * A way for an HTTP adapter to take a turn's response bytes as calls instead of reading its web stream:
 * `TurnOutput.response[PUSH_SOURCE](sink)` hands the stream's bytes to `sink`, once, while nothing has read
 * the stream (null otherwise, and the sink gets nothing). The sink gets every byte the stream would have
 * given, in order, from the first: those produced so far during the call, later ones as they are produced.
 * The web stream is then never to be read. A registered symbol, so `@chatwire/server` reaches it
 * without a public export (its side: `server/src/http/direct-body.ts`).
 */
export const PUSH_SOURCE: unique symbol = Symbol.for('chatwire.pushSource') as never;

export interface PushSink {
  /** The next bytes (never modified or transferred by the source afterwards). */
  write(bytes: Uint8Array): void;
  /** The bytes are over. Called once; nothing is written after it. */
  end(): void;
}

/** What the taker holds once the bytes flow to its sink. */
export interface PushSource {
  /** The reader went away: as cancelling the web stream. */
  cancel(reason?: unknown): void;
}

export type PushSourceStream = ReadableStream<Uint8Array> & { [PUSH_SOURCE]?: (sink: PushSink) => PushSource | null };
