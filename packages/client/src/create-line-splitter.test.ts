import { describe, expect, it } from 'vitest';
import { createLineSplitter } from './create-line-splitter.js';

const enc = new TextEncoder();

function splitPieces(pieces: Uint8Array[]): string[] {
  const lines: string[] = [];
  const splitter = createLineSplitter();
  for (const piece of pieces) splitter.push(piece, (l) => lines.push(l));
  splitter.end((l) => lines.push(l));
  return lines;
}

/** All ways of cutting `bytes` into two pieces, plus one byte per piece. */
function everySplit(bytes: Uint8Array): Uint8Array[][] {
  const cuts: Uint8Array[][] = [];
  for (let i = 0; i <= bytes.length; i++) cuts.push([bytes.subarray(0, i), bytes.subarray(i)]);
  cuts.push(Array.from(bytes, (_b, i) => bytes.subarray(i, i + 1)));
  return cuts;
}

describe('createLineSplitter', () => {
  it('splits on LF and CRLF, keeping empty lines', () => {
    expect(splitPieces([enc.encode('a\nb\r\n\r\nc\n\n')])).toEqual(['a', 'b', '', 'c', '']);
  });

  it('keeps the incomplete last line until its newline arrives', () => {
    const lines: string[] = [];
    const splitter = createLineSplitter();
    splitter.push(enc.encode('data: {"a"'), (l) => lines.push(l));
    expect(lines).toEqual([]);
    splitter.push(enc.encode(':1}\nnext'), (l) => lines.push(l));
    expect(lines).toEqual(['data: {"a":1}']);
    splitter.end((l) => lines.push(l));
    expect(lines).toEqual(['data: {"a":1}', 'next']);
  });

  it('gives identical lines for every cut of a text with CRLF and multi-byte characters', () => {
    const text = 'data: Grüße 👋\r\n\r\n: keep-alive\r\ndata: 東京 é\n\ndata: [DONE]\r\n';
    const expected = ['data: Grüße 👋', '', ': keep-alive', 'data: 東京 é', '', 'data: [DONE]'];
    for (const pieces of everySplit(enc.encode(text))) expect(splitPieces(pieces)).toEqual(expected);
  });

  it('handles a CR at the end of one piece and its LF at the start of the next', () => {
    expect(splitPieces([enc.encode('a\r'), enc.encode('\nb')])).toEqual(['a', 'b']);
  });

  it('emits a last line without line ending at end(), dropping a trailing CR', () => {
    expect(splitPieces([enc.encode('x\ny\r')])).toEqual(['x', 'y']);
    expect(splitPieces([])).toEqual([]);
  });

  it('joins a long line spread over many pieces', () => {
    const long = 'x'.repeat(100_000);
    const bytes = enc.encode(`${long}\nshort\n`);
    const pieces: Uint8Array[] = [];
    for (let i = 0; i < bytes.length; i += 1000) pieces.push(bytes.subarray(i, i + 1000));
    expect(splitPieces(pieces)).toEqual([long, 'short']);
  });

  it('replaces invalid UTF-8 with U+FFFD instead of throwing', () => {
    expect(splitPieces([new Uint8Array([0x61, 0xff, 0x0a])])).toEqual(['a\uFFFD']);
  });
});
