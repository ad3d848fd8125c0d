import { createLineSplitter } from './create-line-splitter.js';
import { parseSseLine, type SkippedLineHandler } from './parse-sse-line.js';
import type { UiMessageChunk } from './ui-message-chunk.js';

export interface ChunkDecoderOptions {
  /** Receives every chunk, in order, synchronously from `push`/`end`. */
  onChunk: (chunk: UiMessageChunk) => void;
  /** Optional diagnostics for `data:` lines that were skipped (bad JSON, not a chunk). */
  onSkippedLine?: SkippedLineHandler;
}

/** The synchronous core: body bytes in, validated chunks out. No promises, no allocation beyond the chunks. */
export interface ChunkDecoder {
  push(bytes: Uint8Array): void;
  /** End of body: flushes a last line that had no line ending. */
  end(): void;
}

export function createChunkDecoder({ onChunk, onSkippedLine }: ChunkDecoderOptions): ChunkDecoder {
  const splitter = createLineSplitter();
  const onLine = (line: string): void => {
    const chunk = parseSseLine(line, onSkippedLine);
    if (chunk !== undefined) onChunk(chunk);
  };
  return {
    push: (bytes) => splitter.push(bytes, onLine),
    end: () => splitter.end(onLine),
  };
}
