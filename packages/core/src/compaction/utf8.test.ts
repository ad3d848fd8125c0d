import { describe, expect, it } from 'vitest';
import { exceedsUtf8Bytes, utf8ByteLength, utf8Prefix } from './utf8.js';

const samples = ['', 'abc', 'é', '€uro', '😀', 'a😀b', 'x'.repeat(50) + 'ü'.repeat(50), '\ud800lone', '日本語テキスト'];

describe('utf8 helpers', () => {
  it('counts UTF-8 bytes like TextEncoder', () => {
    for (const text of samples) expect(utf8ByteLength(text)).toBe(new TextEncoder().encode(text).length);
  });

  it('decides "more than n bytes" correctly, including the cases where it must count', () => {
    for (const text of samples) {
      const bytes = new TextEncoder().encode(text).length;
      for (const n of [0, 1, 2, 3, bytes - 1, bytes, bytes + 1, text.length, text.length * 2]) {
        if (n < 0) continue;
        expect(exceedsUtf8Bytes(text, n), `${JSON.stringify(text)} > ${n}`).toBe(bytes > n);
      }
    }
  });

  it('cuts to at most n bytes without splitting a character', () => {
    for (const text of samples) {
      for (let n = 0; n <= 20; n++) {
        const prefix = utf8Prefix(text, n);
        expect(text.startsWith(prefix)).toBe(true);
        expect(new TextEncoder().encode(prefix).length).toBeLessThanOrEqual(n);
        expect(/[\ud800-\udbff]$/.test(prefix) && !/[\ud800-\udbff]$/.test(text.slice(0, prefix.length))).toBe(false);
        // maximal: one more character would not fit
        const next = text.slice(0, prefix.length + (text.codePointAt(prefix.length)! > 0xffff ? 2 : 1));
        if (next.length > prefix.length) expect(new TextEncoder().encode(next).length).toBeGreaterThan(n);
      }
    }
    expect(utf8Prefix('a😀b', 4)).toBe('a');
    expect(utf8Prefix('a😀b', 5)).toBe('a😀');
  });
});
