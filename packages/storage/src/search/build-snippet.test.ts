import { describe, expect, it } from 'vitest';
import { buildSnippet, SNIPPET_LENGTH } from './build-snippet.js';

const marked = (text: string, words: string[]) => {
  const { snippet, highlights } = buildSnippet(text, words);
  return highlights.reduceRight((s, h) => `${s.slice(0, h.start)}[${s.slice(h.start, h.end)}]${s.slice(h.end)}`, snippet);
};

describe('buildSnippet', () => {
  it('marks every occurrence of the words, accents and case ignored, in plain text', () => {
    expect(marked('The Café in PARIS serves <b>crème</b>', ['cafe', 'creme', 'paris'])).toBe('The [Café] in [PARIS] serves <b>[crème]</b>');
  });

  it('starts shortly before the first match and cuts with an ellipsis at a word boundary', () => {
    const text = `${'filler words here '.repeat(10)}the target word ${'more text after it '.repeat(20)}`;
    const { snippet, highlights } = buildSnippet(text, ['target']);
    expect(snippet.startsWith('…')).toBe(true);
    expect(snippet.endsWith('…')).toBe(true);
    expect(snippet.length).toBeLessThanOrEqual(SNIPPET_LENGTH);
    expect(snippet.slice(highlights[0]!.start, highlights[0]!.end)).toBe('target');
    expect(highlights[0]!.start).toBeLessThan(50);
    expect(snippet).not.toMatch(/\s…$/);
  });

  it('collapses whitespace and keeps offsets right', () => {
    expect(marked('one\n\n  two\t\tthree', ['two', 'three'])).toBe('one [two] [three]');
  });

  it('gives the start of the text without highlights when no word is found', () => {
    expect(buildSnippet('short text', ['absent'])).toEqual({ snippet: 'short text', highlights: [] });
  });

  it('never cuts a surrogate pair', () => {
    const { snippet } = buildSnippet('😀'.repeat(200), ['x']);
    expect(snippet.endsWith('…')).toBe(true);
    expect(() => encodeURIComponent(snippet)).not.toThrow();
  });
});
