import { ItemIterator } from './async-iterators.js';
import { BatchReader } from './batch-reader.js';
import type { ByteSource } from './byte-source.js';
import type { SkippedLineHandler } from './parse-sse-line.js';
import type { UiMessageChunk } from './ui-message-chunk.js';

export interface DecodeOptions {
  /** Diagnostics for skipped `data:` lines (bad JSON, unknown type, missing field). Never thrown. */
  onSkippedLine?: SkippedLineHandler;
}

/**
 * Body bytes -> validated UI message chunks, read incrementally (the raw layer under `decodeActions`).
 * Lines that yield no chunk are skipped. A failing read (network error, abort) rejects `next()` with that
 * error. Breaking out of the loop cancels the body.
 */
export function decodeChunks(source: ByteSource, options: DecodeOptions = {}): AsyncIterableIterator<UiMessageChunk> {
  const reader = new BatchReader<UiMessageChunk>(source, {
    onChunk: (chunk, out) => {
      out.push(chunk);
    },
    ...(options.onSkippedLine ? { onSkippedLine: options.onSkippedLine } : {}),
  });
  return new ItemIterator(reader);
}
