import { describe, expect, it } from 'vitest';
import { createVerifiedTokenCache, MAX_CACHED_TOKEN_CHARS } from './verified-token-cache.js';

const caller = { userId: 'u1' };
const exp = Math.floor(Date.now() / 1000) + 600;

describe('createVerifiedTokenCache', () => {
  it('holds at most maxEntries tokens, forgetting the oldest first', () => {
    const cache = createVerifiedTokenCache({ maxEntries: 2, clockToleranceSec: 0, maxAgeMs: Number.POSITIVE_INFINITY });
    for (const token of ['a', 'b', 'c']) cache.remember(token, { userId: token }, { exp });
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('b')).toEqual({ userId: 'b' });
    expect(cache.get('c')).toEqual({ userId: 'c' });
  });

  it('does not remember tokens it could not bound or check: too long, no numeric exp, a non-numeric nbf, size 0', () => {
    const cache = createVerifiedTokenCache({ maxEntries: 10, clockToleranceSec: 0, maxAgeMs: Number.POSITIVE_INFINITY });
    const long = 'x'.repeat(MAX_CACHED_TOKEN_CHARS + 1);
    cache.remember(long, caller, { exp });
    cache.remember('no-exp', caller, {});
    cache.remember('string-exp', caller, { exp: String(exp) });
    cache.remember('string-nbf', caller, { exp, nbf: '0' });
    expect([long, 'no-exp', 'string-exp', 'string-nbf'].map((t) => cache.get(t))).toEqual([undefined, undefined, undefined, undefined]);
    const none = createVerifiedTokenCache({ maxEntries: 0, clockToleranceSec: 0, maxAgeMs: Number.POSITIVE_INFINITY });
    none.remember('t', caller, { exp });
    expect(none.get('t')).toBeUndefined();
  });

  it('forgets an entry after maxAgeMs', () => {
    const cache = createVerifiedTokenCache({ maxEntries: 10, clockToleranceSec: 0, maxAgeMs: 0 });
    cache.remember('t', caller, { exp });
    expect(cache.get('t')).toBeUndefined();
  });
});
