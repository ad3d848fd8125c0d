import type { UiMessageChunk } from './ui-message-chunk.js';
import { parseTextDeltaFast } from './parse-text-delta-fast.js';
import { validateChunk } from './validate-chunk.js';

/** Why a line that looked like data produced no chunk (see `onSkippedLine`). */
export type SkipReason = 'invalid-json' | 'invalid-chunk';

/** Called for `data:` lines that yield no chunk. Never called for blank lines, comments, `[DONE]` or other fields. */
export type SkippedLineHandler = (line: string, reason: SkipReason) => void;

/**
 * One SSE line (without its line ending) to a chunk, or `undefined` when the line carries none:
 * blank lines (event separators), comments (`: keep-alive`), fields other than `data` (`event:`, `id:`,
 * `retry:`), the terminal `data: [DONE]`, invalid JSON and JSON that is not a valid chunk. Never throws.
 *
 * One `data:` line is one chunk (the AI SDK writes `data: <JSON>` on a single line; JSON.stringify never
 * emits a raw newline), so multi-line `data` events are not joined.
 */
export function parseSseLine(line: string, onSkippedLine?: SkippedLineHandler): UiMessageChunk | undefined {
  // 'd' 'a' 't' 'a' ':' — checked by char code: cheaper than startsWith + slice on the hot path.
  if (
    line.length < 6 ||
    line.charCodeAt(0) !== 100 ||
    line.charCodeAt(1) !== 97 ||
    line.charCodeAt(2) !== 116 ||
    line.charCodeAt(3) !== 97 ||
    line.charCodeAt(4) !== 58
  ) {
    return undefined;
  }
  const start = line.charCodeAt(5) === 32 ? 6 : 5;
  const fast = parseTextDeltaFast(line, start);
  if (fast !== undefined) return fast;
  const payload = line.slice(start);
  if (payload === '[DONE]') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(payload);
  } catch {
    onSkippedLine?.(line, 'invalid-json');
    return undefined;
  }
  const chunk = validateChunk(value);
  if (chunk === undefined) onSkippedLine?.(line, 'invalid-chunk');
  return chunk;
}
