import { describe, expect, it } from 'vitest';
import { canonicalJson, cloneJson, jsonEqual, jsonProblem, utf8ByteLength } from './json-value.js';
import { decodeCursor, encodeCursor } from './base64url.js';

describe('json values', () => {
  it('utf8ByteLength matches TextEncoder', () => {
    for (const s of ['', 'abc', 'é', '€', '😀', 'a😀b€', '\uD800 lone surrogate']) {
      expect(utf8ByteLength(s), s).toBe(new TextEncoder().encode(s).length);
    }
  });

  it('jsonEqual ignores key order and undefined properties, not array order', () => {
    expect(jsonEqual({ a: 1, b: [1, { c: 2 }] }, { b: [1, { c: 2 }], a: 1, d: undefined })).toBe(true);
    expect(jsonEqual([1, 2], [2, 1])).toBe(false);
    expect(jsonEqual({ a: 1 }, { a: '1' })).toBe(false);
    expect(jsonEqual({ a: null }, {})).toBe(false);
  });

  it('jsonProblem names non-JSON values', () => {
    expect(jsonProblem({ a: [1, 'x', null, { b: true }] })).toBeNull();
    expect(jsonProblem({ a: new Map() })).toMatch(/Map/);
    expect(jsonProblem([undefined])).toMatch(/undefined/);
    expect(jsonProblem(Number.POSITIVE_INFINITY)).toMatch(/finite/);
  });

  it('cloneJson keeps a "__proto__" key as an own field and never sets a prototype (prototype injection)', () => {
    const source = JSON.parse('{"meta":{"__proto__":{"isAdmin":true}}}') as { meta: Record<string, unknown> };
    const copy = cloneJson(source);
    expect(Object.getPrototypeOf(copy.meta)).toBe(Object.prototype);
    expect(copy.meta.isAdmin).toBeUndefined();
    expect(Object.keys(copy.meta)).toEqual(['__proto__']);
    expect(JSON.stringify(copy)).toBe('{"meta":{"__proto__":{"isAdmin":true}}}');
    expect(cloneJson(copy)).toStrictEqual(copy);
  });

  it('cloneJson copies deeply and drops undefined properties', () => {
    const source = { a: { b: [1, { c: 2 }] }, u: undefined };
    const copy = cloneJson(source);
    expect(copy).toEqual({ a: { b: [1, { c: 2 }] } });
    expect('u' in copy).toBe(false);
    expect(copy.a).not.toBe(source.a);
  });

  it('canonicalJson is stable across key order', () => {
    expect(canonicalJson({ b: 1, a: { d: 1, c: 2 } })).toBe(canonicalJson({ a: { c: 2, d: 1 }, b: 1 }));
  });

  it('cursors are base64url and round-trip unicode; garbage decodes to null', () => {
    const cursor = encodeCursor({ k: 'é😀', s: 1 });
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(cursor)).toEqual({ k: 'é😀', s: 1 });
    expect(decodeCursor('!!')).toBeNull();
    expect(decodeCursor('A')).toBeNull();
    expect(decodeCursor('_-_-')).toBeNull();
  });
});
