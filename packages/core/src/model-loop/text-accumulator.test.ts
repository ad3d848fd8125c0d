import { describe, expect, it } from 'vitest';
import { TextAccumulator } from './text-accumulator.js';

describe('TextAccumulator', () => {
  it('returns the whole text after every delta, across many flattenings, with empty and non-ASCII deltas', () => {
    const acc = new TextAccumulator();
    let expected = '';
    for (let i = 0; i < 500; i++) {
      const delta = i % 7 === 0 ? '' : i % 5 === 0 ? `é${i}😀` : `w${i} `;
      expected += delta;
      expect(acc.append(delta)).toBe(expected);
      expect(acc.text).toBe(expected);
    }
  });

  it('starts from an initial text', () => {
    const acc = new TextAccumulator('{"a":');
    for (let i = 0; i < 100; i++) acc.append(String(i % 10));
    expect(acc.text).toBe(`{"a":${'0123456789'.repeat(10)}`);
  });
});
