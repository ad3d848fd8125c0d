import { describe, expect, it } from 'vitest';
import { encodeSseChunk, encodeTextDelta } from './sse-encoder.js';

const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe('encodeTextDelta', () => {
  it.each([
    ['plain', 't0', 'Hello '],
    ['empty delta', 't0', ''],
    ['quotes and backslashes in id and delta', 'a"b\\c', 'say "hi" \\ bye'],
    ['control characters and newlines', 't1', 'line\nnext\r\ttab \u0000 \u001f'],
    ['non-ASCII, astral and a lone surrogate', 't2', 'Zürich 東京 😀 \ud800 end'],
    ['line and paragraph separators', 't3', 'a\u2028b\u2029c </script>'],
  ])('writes the same bytes as encodeSseChunk of the chunk object (%s)', (_name, id, delta) => {
    expect(decode(encodeTextDelta(id, delta))).toBe(decode(encodeSseChunk({ type: 'text-delta', id, delta })));
    expect(JSON.parse(decode(encodeTextDelta(id, delta)).slice('data: '.length))).toEqual({ type: 'text-delta', id, delta });
  });
});
