import type { UIMessageChunk } from 'ai';
import type { TurnLogWriter } from '../hub/turn-hub.js';
import { encodeSseChunk, encodeTextDelta, SSE_DONE } from './sse-encoder.js';

/**
 * Where a turn's chunks go: encoded once as SSE bytes, then handed to the HTTP response that started the
 * turn (while it is connected) and to the turn's log in the hub (for readers that attach later).
 *
 * Two rules live here so no phase can break them: after an `error` chunk nothing but `[DONE]` is sent (what
 * the user saw and what is stored agree), and the stream always ends with `[DONE]`, exactly once.
 */
export class TurnOutput {
  /** The HTTP response body of the request that started the turn. */
  readonly response: ReadableStream<Uint8Array>;
  private controller: ReadableStreamDefaultController<Uint8Array> | null = null;
  private sealed = false;
  private done = false;
  private readonly openTexts = new Set<string>();

  /** `onGone` runs once when the response's reader cancels (the client went away). */
  constructor(
    private readonly log: TurnLogWriter | null,
    onGone: () => void,
  ) {
    this.response = new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.controller = controller;
      },
      cancel: () => {
        if (this.controller === null) return;
        this.controller = null;
        onGone();
      },
    });
  }

  /** True once an `error` chunk went out: the stream can only end now. */
  get isSealed(): boolean {
    return this.sealed;
  }

  /** True while the response that started the turn is still being read. */
  get connected(): boolean {
    return this.controller !== null;
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
    this.done = true;
    this.emit(SSE_DONE);
    const controller = this.controller;
    this.controller = null;
    controller?.close();
    await this.log?.end();
  }

  private emit(bytes: Uint8Array): void {
    this.log?.append(bytes);
    this.controller?.enqueue(bytes);
  }
}
