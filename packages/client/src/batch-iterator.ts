import { openByteReader, type ByteReader, type ByteSource } from './byte-source.js';
import { createChunkDecoder, type ChunkDecoder } from './create-chunk-decoder.js';
import type { SkippedLineHandler } from './parse-sse-line.js';
import type { UiMessageChunk } from './ui-message-chunk.js';

export interface BatchIteratorHooks<T> {
  /** Turns one chunk into zero or more items pushed onto `out`. */
  onChunk(chunk: UiMessageChunk, out: T[]): void;
  /** The body ended normally; may push final items. */
  onEnd?(out: T[]): void;
  /** A read failed; push items and return true to end quietly, or return false to reject `next()`. */
  onReadError?(error: unknown, out: T[]): boolean;
  onSkippedLine?: SkippedLineHandler;
}

/**
 * Async iterator over a byte source. A hand-written iterator rather than an async generator: one read fills
 * a batch synchronously and `next()` serves it from memory, much cheaper per item than generator
 * resumption. `return()` (a `break` in `for await`) cancels the body. Single use.
 */
export class BatchIterator<T> implements AsyncIterableIterator<T> {
  private batch: T[] = [];
  private index = 0;
  private finished = false;
  private filling: Promise<IteratorResult<T, undefined>> | undefined;
  private readonly reader: ByteReader;
  private readonly decoder: ChunkDecoder;

  constructor(
    source: ByteSource,
    private readonly hooks: BatchIteratorHooks<T>,
  ) {
    this.reader = openByteReader(source);
    this.decoder = createChunkDecoder({
      onChunk: (chunk) => hooks.onChunk(chunk, this.batch),
      ...(hooks.onSkippedLine ? { onSkippedLine: hooks.onSkippedLine } : {}),
    });
  }

  next(): Promise<IteratorResult<T, undefined>> {
    if (this.filling) return this.filling.then(() => this.next());
    if (this.index < this.batch.length) return Promise.resolve({ done: false, value: this.batch[this.index++]! });
    this.filling = this.fill().finally(() => {
      this.filling = undefined;
    });
    return this.filling;
  }

  private async fill(): Promise<IteratorResult<T, undefined>> {
    while (this.index >= this.batch.length) {
      if (this.finished) return { done: true, value: undefined };
      this.batch.length = 0;
      this.index = 0;
      let result: Awaited<ReturnType<ByteReader['read']>>;
      try {
        result = await this.reader.read();
      } catch (error) {
        this.finished = true;
        if (!this.hooks.onReadError?.(error, this.batch)) throw error;
        continue;
      }
      if (result.done) {
        this.finished = true;
        this.decoder.end();
        this.hooks.onEnd?.(this.batch);
      } else {
        this.decoder.push(result.value);
      }
    }
    return { done: false, value: this.batch[this.index++]! };
  }

  async return(): Promise<IteratorResult<T, undefined>> {
    if (!this.finished) {
      this.finished = true;
      this.batch.length = 0;
      this.index = 0;
      await this.reader.cancel().catch(() => undefined);
    }
    return { done: true, value: undefined };
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}
