import { describe, expect, it } from 'vitest';
import { capToolResult } from './cap-tool-result.js';
import { findForbiddenKey } from './find-forbidden-key.js';

const bytes = (text: string) => new TextEncoder().encode(text).length;

describe('capToolResult', () => {
  it('returns results that fit unchanged (the same object)', () => {
    const output = { a: 'x'.repeat(100) };
    expect(capToolResult(output, 1_000, 'hint')).toBe(output);
    expect(capToolResult(undefined, 1_000, 'hint')).toBeUndefined();
  });

  it('cuts to at most the cap, never splitting a character, and says how much was cut', () => {
    for (const cap of [1_000, 1_001, 1_002, 1_003]) {
      const output = { text: '€'.repeat(2_000) };
      const capped = capToolResult(output, cap, 'Ask for less.') as string;
      expect(bytes(capped)).toBeLessThanOrEqual(cap);
      expect(capped).not.toContain('\uFFFD');
      const match = /showing the first (\d+) of (\d+) bytes, (\d+) bytes cut\. Ask for less\.\]$/.exec(capped);
      expect(Number(match?.[2])).toBe(bytes(JSON.stringify(output)));
      expect(Number(match?.[1]) + Number(match?.[3])).toBe(Number(match?.[2]));
    }
  });

  it('cuts plain strings as text', () => {
    const capped = capToolResult('a'.repeat(5_000), 1_000, 'h') as string;
    expect(capped.startsWith('aaaa')).toBe(true);
    expect(capped).toContain('of 5000 bytes');
  });

  it('refuses values that are not JSON', () => {
    expect(() => capToolResult({ n: 1n }, 1_000, 'h', 'my.tool')).toThrow('my.tool: returned a value that cannot be sent as JSON');
  });
});

describe('findForbiddenKey', () => {
  it('finds prototype keys at any depth, including own __proto__ properties', () => {
    expect(findForbiddenKey({ a: [{ b: 1 }, { c: { prototype: 1 } }] })).toBe("input.a[1].c.prototype: the key 'prototype' is not allowed");
    expect(findForbiddenKey(JSON.parse('{"x":{"__proto__":{"y":1}}}'))).toBe("input.x.__proto__: the key '__proto__' is not allowed");
    expect(findForbiddenKey({ constructor: 1 })).toContain('constructor');
    expect(findForbiddenKey({ title: 'constructor', n: null, list: ['prototype'] })).toBeNull();
  });

  it('refuses absurd nesting instead of recursing without end', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 40; i++) deep = { d: deep };
    expect(findForbiddenKey(deep)).toContain('nested deeper than 32 levels');
  });
});
