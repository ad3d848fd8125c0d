import type { Caller } from '@chatwire/storage';

export interface VerifiedTokenCacheOptions {
  /** Tokens remembered at most; the oldest is forgotten first. */
  maxEntries: number;
  /** The verifier's leeway for `exp` / `nbf`, in seconds. */
  clockToleranceSec: number;
  /** An entry is forgotten this long after its verification at the latest (keys that can change: JWKS). */
  maxAgeMs: number;
}

/** What a verification established: the caller, and the time claims the clock can still make fail. */
interface Entry {
  caller: Caller;
  exp: number;
  nbf: number | undefined;
  forgetAtMs: number;
}

/**
 * Where a verifier made by `createJwtVerifier` exposes its remembered callers to `createChatHandler`, so a
 * remembered token is answered without the promises of a verification.
 */
export const REMEMBERED: unique symbol = Symbol('chatwire.remembered-caller');

/** Longer tokens are verified every time (they would make the cache's memory bound meaningless). */
export const MAX_CACHED_TOKEN_CHARS = 4096;

export interface VerifiedTokenCache {
  /** The caller of a token verified earlier whose `exp` and `nbf` still hold now, else undefined. */
  get(token: string): Caller | undefined;
  remember(token: string, caller: Caller, claims: { exp?: unknown; nbf?: unknown }): void;
}

/**
 * Tokens that passed verification, by exact string. The signature, algorithm, issuer, audience, typ and
 * subject of a given string never change their verdict under the same key; only the clock does, so every
 * hit checks `exp` and `nbf` again with the verifier's leeway, exactly as jose does
 * (`now = floor(Date.now() / 1000)`; `exp <= now - leeway` or `nbf > now + leeway` fails). A hit that fails
 * them is not answered from here: the token goes through full verification and fails there with the
 * same cause. Bounded: at most `maxEntries` tokens of at most MAX_CACHED_TOKEN_CHARS characters.
 */
export function createVerifiedTokenCache(options: VerifiedTokenCacheOptions): VerifiedTokenCache {
  const entries = new Map<string, Entry>();
  const { maxEntries, clockToleranceSec: leeway, maxAgeMs } = options;
  return {
    get(token) {
      const entry = entries.get(token);
      if (entry === undefined) return undefined;
      const nowMs = Date.now();
      const now = Math.floor(nowMs / 1000);
      if (entry.exp <= now - leeway || nowMs >= entry.forgetAtMs) {
        entries.delete(token);
        return undefined;
      }
      if (entry.nbf !== undefined && entry.nbf > now + leeway) return undefined; // the clock went back
      // A copy: a caller object is the request's own (code may add to it), the claims are frozen.
      return { ...entry.caller };
    },
    remember(token, caller, claims) {
      if (maxEntries <= 0 || token.length > MAX_CACHED_TOKEN_CHARS || typeof claims.exp !== 'number') return;
      if (claims.nbf !== undefined && typeof claims.nbf !== 'number') return;
      if (entries.size >= maxEntries && !entries.has(token)) entries.delete(entries.keys().next().value as string);
      entries.set(token, { caller: { ...caller }, exp: claims.exp, nbf: claims.nbf, forgetAtMs: Date.now() + maxAgeMs });
    },
  };
}
