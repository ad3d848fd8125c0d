import { describe, expect, it } from 'vitest';
import { parseSseLine, type SkipReason } from './parse-sse-line.js';
import { parseTextDeltaFast } from './parse-text-delta-fast.js';
import { VALID_CHUNKS } from './test-support/sample-chunks.js';
import { validateChunk } from './validate-chunk.js';

const line = (chunk: unknown) => `data: ${JSON.stringify(chunk)}`;

function skipsOf(lines: string[]): Array<[string, SkipReason]> {
  const skipped: Array<[string, SkipReason]> = [];
  for (const l of lines) expect(parseSseLine(l, (s, r) => skipped.push([s, r]))).toBeUndefined();
  return skipped;
}

describe('parseSseLine', () => {
  it.each(Object.entries(VALID_CHUNKS))('decodes a %s line', (_type, chunk) => {
    expect(parseSseLine(line(chunk))).toEqual(chunk);
  });

  it('accepts `data:` without the space', () => {
    expect(parseSseLine('data:{"type":"abort"}')).toEqual({ type: 'abort' });
  });

  it('yields nothing, silently, for blank lines, comments, [DONE] and other SSE fields', () => {
    const skipped = skipsOf(['', ': keep-alive', ':stream-open', 'data: [DONE]', 'data:[DONE]', 'event: message', 'id: 7', 'retry: 10', 'dat']);
    expect(skipped).toEqual([]);
  });

  it('skips malformed JSON with reason invalid-json, never throwing', () => {
    const bad = ['data: {"type":"text-delta"', 'data: not json', 'data: ', 'data: {"type":"text-delta","id":"t","delta":"x"}}'];
    expect(skipsOf(bad)).toEqual(bad.map((l) => [l, 'invalid-json']));
  });

  it('skips unknown types and chunks missing required fields with reason invalid-chunk', () => {
    const bad = [
      line({ type: 'text-delta', id: 't' }),
      line({ type: 'tool-output-error', toolCallId: 'c' }),
      line({ type: 'reasoning' }),
      line({ type: 'tool-call', toolCallId: 'c' }),
      line({ delta: 'x' }),
      line([1, 2]),
      'data: 42',
      'data: "text"',
      'data: null',
    ];
    expect(skipsOf(bad)).toEqual(bad.map((l) => [l, 'invalid-chunk']));
  });
});

describe('text-delta fast path', () => {
  const general = (payload: string) => {
    try {
      return validateChunk(JSON.parse(payload));
    } catch {
      return undefined;
    }
  };
  const payloads = [
    ...['', ' plain', 'Grüße 👋 東京', 'tab\there', 'quote " inside', 'back\\slash', 'nl\nx', '\u0001', '</script>', 'é\u2028'].map((delta) =>
      JSON.stringify({ type: 'text-delta', id: 't1', delta }),
    ),
    JSON.stringify({ type: 'text-delta', id: 'a"b', delta: 'x' }),
    JSON.stringify({ type: 'text-delta', id: 't', delta: 'x', providerMetadata: { p: { k: '"}' } } }),
    JSON.stringify({ type: 'text-delta', delta: 'x', id: 't' }),
    '{"type":"text-delta","id":"t","delta":"a","x":"b"}',
    '{"type":"text-delta","id":"t","delta":"',
    '{"type":"text-delta","id":"t","delta":"}',
    '{"type":"text-delta","id":"t"}',
    '{"type":"text-delta","id":"t","delta":"a"} ',
    '{"type":"text-delta","id":"t","delta":"a\\u0022"}',
  ];

  it.each(payloads)('gives the same result as JSON.parse + validation for %s', (payload) => {
    expect(parseSseLine(`data: ${payload}`)).toEqual(general(payload));
  });

  it('actually takes the fast path for plain deltas and declines escapes and extra fields', () => {
    expect(parseTextDeltaFast('{"type":"text-delta","id":"t1","delta":" hi"}')).toEqual({ type: 'text-delta', id: 't1', delta: ' hi' });
    expect(parseTextDeltaFast('{"type":"text-delta","id":"t1","delta":"a\\nb"}')).toBeUndefined();
    expect(parseTextDeltaFast('{"type":"text-delta","id":"t","delta":"a","x":"b"}')).toBeUndefined();
  });
});
