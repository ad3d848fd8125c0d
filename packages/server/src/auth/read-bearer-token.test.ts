import { describe, expect, it } from 'vitest';
import { readBearerToken } from './read-bearer-token.js';

describe('readBearerToken', () => {
  it.each<[string | null, string | null]>([
    ['Bearer abc.def.ghi', 'abc.def.ghi'],
    ['bearer abc.def.ghi', 'abc.def.ghi'],
    ['BEARER abc.def.ghi', 'abc.def.ghi'],
    ['  Bearer   abc.def-_~+/ghi==  ', 'abc.def-_~+/ghi=='],
    ['Bearer\tabc', 'abc'],
    [null, null],
    ['', null],
    ['Bearer', null],
    ['Bearer ', null],
    ['Basic dXNlcjpwYXNz', null],
    ['Token abc', null],
    ['Bearerabc', null],
    ['abc.def.ghi', null],
    ['Bearer abc def', null],
    ['Bearer abc, Bearer def', null],
    ['Bearer "abc"', null],
    ['Bearer a=b', null],
  ])('%j -> %j', (header, expected) => {
    expect(readBearerToken(header)).toBe(expected);
  });
});
