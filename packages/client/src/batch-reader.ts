import { openByteReader, type ByteReader, type ByteSource } from './byte-source.js';
import { createChunkDecoder, type ChunkDecoder } from './create-chunk-decoder.js';
import type { SkippedLineHandler } from './parse-sse-line.js';
import type { UiMessageChunk } from './ui-message-chunk.js';

export interface BatchReaderHooks<T> {
  /** Turns one chunk into zero or more items pushed onto `out`. */
  onChunk(chunk: UiMessageChunk, out: T[]): void;
  /** The body ended normally; may push final items. */
  onEnd?(out: T[]): void;
  /** A read failed; push items and return true to end quietly, or return false to reject. */
  onReadError?(error: unknown, out: T[]): boolean;
  onSkippedLine?: SkippedLineHandler;
}

/**
 * Reads a byte source and decodes each piece synchronously into a batch of items: one promise per network
 * read, not per item. The iterators in `async-iterators.ts` serve items or whole batches from it.
 */
export class BatchReader<T> {
  private out: T[] = [];
  private finished = false;
  private readonly reader: ByteReader;
  private readonly decoder: ChunkDecoder;

  constructor(
    source: ByteSource,
    private readonly hooks: BatchReaderHooks<T>,
  ) {
    this.reader = openByteReader(source);
    this.decoder = createChunkDecoder({
      onChunk: (chunk) => hooks.onChunk(chunk, this.out),
      ...(hooks.onSkippedLine ? { onSkippedLine: hooks.onSkippedLine } : {}),
    });
  }

  /** The next non-empty batch (a fresh array the caller may keep), or `undefined` at the end. */
  async nextBatch(): Promise<T[] | undefined> {
    while (this.out.length === 0) {
      if (this.finished) return undefined;
      let result: Awaited<ReturnType<ByteReader['read']>>;
      try {
        result = await this.reader.read();
      } catch (error) {
        this.finished = true;
        if (!this.hooks.onReadError?.(error, this.out)) throw error;
        continue;
      }
      if (result.done) {
        this.finished = true;
        this.decoder.end();
        this.hooks.onEnd?.(this.out);
      } else {
        this.decoder.push(result.value);
      }
    }
    const batch = this.out;
    this.out = [];
    return batch;
  }

  /** Stops reading and releases the body (idempotent). */
  async cancel(): Promise<void> {
    if (this.finished) return;
    this.finished = true;
    this.out = [];
    await this.reader.cancel().catch(() => undefined);
  }
}
