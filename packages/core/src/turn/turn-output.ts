import type { UIMessageChunk } from 'ai';
import type { TurnLogWriter } from '../hub/turn-hub.js';
import { PUSH_SOURCE, type PushSink, type PushSource, type PushSourceStream } from './push-source.js';
import { encodeSseChunk, encodeTextDelta, SSE_DONE } from './sse-encoder.js';

/**
 * Where a turn's chunks go: encoded once as SSE bytes, then handed to the HTTP response that started the
 * turn (while it is connected) and to the turn's log in the hub (for readers that attach later).
 *
 * Two rules live here so no phase can break them: after an `error` chunk nothing but `[DONE]` is sent (what
 * the user saw and what is stored agree), and the stream always ends with `[DONE]`, exactly once.
 *
 * The response is read one of two ways, decided by the first reader: as a web stream (its first read), or
 * as calls (`response[PUSH_SOURCE](sink)`, see `push-source.ts`: the Node adapter writes each chunk to the
 * socket with no stream, reader or promise per chunk). Until then the bytes wait here.
 */
export class TurnOutput {
  /** The web stream until a sink took the bytes (then dropped: one stream less held per open turn). */
  private stream: PushSourceStream | null;
  private controller: ReadableStreamDefaultController<Uint8Array> | null = null;
  private sink: PushSink | null = null;
  /** Bytes produced before the response had a reader (null once it has one). */
  private pending: Uint8Array[] | null = [];
  /** False once the reader went away (cancelled) or the response ended. */
  private open = true;
  private sealed = false;
  private done = false;
  private readonly openTexts = new Set<string>();

  /** `onGone` runs once when the response's reader cancels (the client went away). */
  constructor(
    private readonly log: TurnLogWriter | null,
    private readonly onGone: () => void,
  ) {
    const stream: PushSourceStream = new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          this.controller = controller;
        },
        pull: (controller) => {
          // The first read: the web stream is the reader from now on.
          const pending = this.pending;
          if (pending === null) return;
          this.pending = null;
          for (const bytes of pending) controller.enqueue(bytes);
          if (this.done) controller.close();
        },
        cancel: () => this.gone(),
      },
      { highWaterMark: 0 },
    );
    stream[PUSH_SOURCE] = (sink) => this.push(sink);
    this.stream = stream;
  }

  /**
   * The HTTP response body of the request that started the turn. Once its bytes were taken as calls
   * (`PUSH_SOURCE`), a stream that fails at once: the bytes went to the sink.
   */
  get response(): PushSourceStream {
    return (this.stream ??= new ReadableStream<Uint8Array>({
      start: (controller) => controller.error(new TypeError('TurnOutput: the response bytes were taken by a sink')),
    }));
  }

  /** True once an `error` chunk went out: the stream can only end now. */
  get isSealed(): boolean {
    return this.sealed;
  }

  /** True while the response that started the turn is still being read. */
  get connected(): boolean {
    return this.open && !this.done;
  }

  send(chunk: UIMessageChunk): void {
    if (this.sealed) return;
    if (chunk.type === 'text-start') this.openTexts.add(chunk.id);
    else if (chunk.type === 'text-end') this.openTexts.delete(chunk.id);
    else if (chunk.type === 'error') this.sealed = true;
    this.emit(encodeSseChunk(chunk));
  }

  /** `send({ type: 'text-delta', id, delta })` without the chunk object: the hot path of every answer. */
  sendTextDelta(id: string, delta: string): void {
    if (!this.sealed) this.emit(encodeTextDelta(id, delta));
  }

  /** Sends `text-end` for every text block still open, so a stopped answer ends cleanly. */
  closeOpenTexts(): void {
    for (const id of [...this.openTexts]) this.send({ type: 'text-end', id });
  }

  /** Writes `[DONE]` and ends the response and the log. Idempotent. */
  async end(): Promise<void> {
    if (this.done) return;
    this.emit(SSE_DONE);
    this.done = true;
    if (this.open && this.pending === null) {
      if (this.sink !== null) this.sink.end();
      else this.controller?.close();
    }
    this.sink = null;
    this.controller = null;
    await this.log?.end();
  }

  private emit(bytes: Uint8Array): void {
    this.log?.append(bytes);
    if (!this.open || this.done) return;
    if (this.pending !== null) this.pending.push(bytes);
    else if (this.sink !== null) this.sink.write(bytes);
    else this.controller?.enqueue(bytes);
  }

  private push(sink: PushSink): PushSource | null {
    const pending = this.pending;
    if (pending === null || !this.open) return null;
    this.pending = null;
    this.controller = null;
    this.stream = null;
    if (!this.done) this.sink = sink;
    for (const bytes of pending) if (this.open) sink.write(bytes);
    if (this.done && this.open) sink.end();
    return { cancel: () => this.gone() };
  }

  /** The reader went away: nothing more is handed to it, and the turn learns it once. */
  private gone(): void {
    if (!this.open) return;
    this.open = false;
    this.pending = null;
    this.sink = null;
    this.controller = null;
    if (!this.done) this.onGone();
  }
}
