import { describe, expect, it } from 'vitest';
import { compareCodePoints, compareSortValues, matchesCondition, matchesFilter } from './filter-semantics.js';

const byCodePoints = (a: string, b: string) => {
  const x = [...a].map((c) => c.codePointAt(0) as number);
  const y = [...b].map((c) => c.codePointAt(0) as number);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return (x[i] as number) < (y[i] as number) ? -1 : 1;
  return Math.sign(x.length - y.length);
};

describe('compareCodePoints', () => {
  it('orders like UTF-8 bytes / COLLATE "C": uppercase before lowercase, BMP private use before astral', () => {
    expect(compareCodePoints('B', 'a')).toBe(-1);
    expect(compareCodePoints('\uFFFF', '\u{1F600}')).toBe(-1);
    expect('\uFFFF' < '\u{1F600}').toBe(false); // plain JS comparison gets this wrong
    expect(compareCodePoints('ab', 'abc')).toBe(-1);
    expect(compareCodePoints('same', 'same')).toBe(0);
  });

  it('agrees with a code-point reference on random strings', () => {
    const alphabet = ['a', 'B', 'é', '\uE000', '\uFFFF', '\u{10000}', '\u{1F600}', 'z', '\u0800'];
    let seed = 7;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const word = () => Array.from({ length: Math.floor(rand() * 4) }, () => alphabet[Math.floor(rand() * alphabet.length)]).join('');
    for (let i = 0; i < 2000; i++) {
      const a = word();
      const b = word();
      expect(Math.sign(compareCodePoints(a, b)), `${a} vs ${b}`).toBe(byCodePoints(a, b));
    }
  });
});

describe('matchesCondition', () => {
  it('treats missing and null alike', () => {
    expect(matchesCondition(undefined, { eq: null })).toBe(true);
    expect(matchesCondition(null, { exists: false })).toBe(true);
    expect(matchesCondition(undefined, { ne: 'x' })).toBe(true);
    expect(matchesCondition(null, { ne: null })).toBe(false);
    expect(matchesCondition(undefined, { gt: 0 })).toBe(false);
  });

  it('never matches across types', () => {
    expect(matchesCondition('1', { eq: 1 })).toBe(false);
    expect(matchesCondition(1, { gte: '0' })).toBe(false);
    expect(matchesCondition(true, { eq: 1 })).toBe(false);
    expect(matchesCondition({ a: 1 }, { eq: null })).toBe(false);
  });

  it('matchesFilter ANDs fields and treats bare values as eq', () => {
    expect(matchesFilter({ a: 1, b: 'x' }, { a: 1, b: { in: ['x', 'y'] } })).toBe(true);
    expect(matchesFilter({ a: 1, b: 'x' }, { a: 1, b: 'y' })).toBe(false);
    expect(matchesFilter({}, undefined)).toBe(true);
  });
});

describe('compareSortValues', () => {
  it('puts missing and null after every value and ranks mixed types number < string < boolean < object', () => {
    const values = [null, true, 'a', { o: 1 }, 2, undefined, -1, 'B', false];
    const sorted = [...values].sort(compareSortValues);
    expect(sorted.slice(0, 7)).toEqual([-1, 2, 'B', 'a', false, true, { o: 1 }]);
    // Array.prototype.sort always moves undefined to the end; null lands just before it.
    expect(sorted.slice(7)).toEqual([null, undefined]);
  });
});
