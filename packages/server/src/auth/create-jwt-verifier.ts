import type { Caller } from '@chatwire/storage';
import { ChatwireError, LONE_SURROGATE } from '@chatwire/storage';
import { createRemoteJWKSet, importSPKI, importX509, jwtVerify, type JWTVerifyGetKey, type KeyObject } from 'jose';
import { checkAlgorithms, HMAC_ALGORITHMS } from './jwt-algorithms.js';
import { createVerifiedTokenCache, REMEMBERED } from './verified-token-cache.js';

/** Verifies a bearer token and returns who is calling; rejects with `UNAUTHORIZED` otherwise. */
export type TokenVerifier = (token: string) => Promise<Caller>;

export interface JwtVerifierOptions {
  /** HMAC shared secret (HS256 by default); at least 32 bytes (48 for HS384, 64 for HS512). */
  secret?: string | Uint8Array;
  /** PEM SPKI public key (`-----BEGIN PUBLIC KEY-----`, or an X.509 certificate) or a CryptoKey. */
  publicKey?: string | CryptoKey;
  /** JSON Web Key Set URL (https; plain http only for localhost). Keys are cached and refetched on unknown kid. */
  jwksUrl?: string;
  /** Accepted `alg` values. Default: ['HS256'] with `secret`, ['RS256', 'ES256', 'EdDSA'] otherwise. */
  algorithms?: string[];
  issuer?: string;
  /** The token's `aud` must contain one of these. */
  audience?: string | string[];
  /** Leeway for `exp` / `nbf`, in seconds. Default 5. */
  clockToleranceSec?: number;
  /** Claim holding the caller's role. Default 'role'. */
  roleClaim?: string;
  /** Longer tokens are rejected before any parsing. Default 8192. */
  maxTokenBytes?: number;
  /** Required `typ` header (e.g. 'JWT' or 'at+jwt'), when set. */
  typ?: string;
  /**
   * Verified tokens remembered by exact string (up to 4096 characters), so a client's repeated token skips
   * the signature check; `exp` and `nbf` are still checked on every request. With `jwksUrl` a token is
   * remembered for at most 60 s (a key removed from the set stops working as it would without the cache).
   * Default 1000; 0 turns it off.
   */
  cacheSize?: number;
}

const INVALID = 'Missing or invalid bearer token';
/** How long a token verified against a JWKS is remembered (jose refetches the set after 10 min at most). */
const JWKS_CACHE_MAX_AGE_MS = 60_000;
const encoder = new TextEncoder();
type VerifyKey = Uint8Array | CryptoKey | KeyObject | JWTVerifyGetKey;

/**
 * A JWT verifier per RFC 8725: exactly one key source, an explicit algorithm allow-list, `exp` and `sub`
 * required, issuer / audience checked when configured. Configuration mistakes throw `CONFIGURATION` here;
 * every verification failure rejects with the same `UNAUTHORIZED` message (the cause is in `error.cause`).
 */
export function createJwtVerifier(options: JwtVerifierOptions): TokenVerifier {
  const sources = (['secret', 'publicKey', 'jwksUrl'] as const).filter((name) => options[name] !== undefined);
  if (sources.length !== 1) {
    throw new ChatwireError(
      'CONFIGURATION',
      sources.length === 0
        ? 'JWT verifier needs one key source: secret, publicKey or jwksUrl'
        : `JWT verifier needs exactly one key source, got ${sources.join(' and ')}`,
    );
  }
  const algorithms = checkAlgorithms(options.secret !== undefined ? 'hmac' : 'asymmetric', options.algorithms);
  const key = verificationKey(options, algorithms);
  const clockTolerance = options.clockToleranceSec ?? 5;
  const maxTokenBytes = options.maxTokenBytes ?? 8192;
  const roleClaim = options.roleClaim ?? 'role';
  if (!(clockTolerance >= 0) || !Number.isFinite(clockTolerance)) {
    throw new ChatwireError('CONFIGURATION', 'clockToleranceSec must be a finite number >= 0');
  }
  if (!Number.isInteger(maxTokenBytes) || maxTokenBytes <= 0) {
    throw new ChatwireError('CONFIGURATION', 'maxTokenBytes must be a positive integer');
  }
  const cacheSize = options.cacheSize ?? 1000;
  if (!Number.isInteger(cacheSize) || cacheSize < 0) {
    throw new ChatwireError('CONFIGURATION', 'cacheSize must be an integer >= 0');
  }
  const cache = createVerifiedTokenCache({
    maxEntries: cacheSize,
    clockToleranceSec: clockTolerance,
    maxAgeMs: options.jwksUrl !== undefined ? JWKS_CACHE_MAX_AGE_MS : Number.POSITIVE_INFINITY,
  });
  const verifyOptions = {
    algorithms,
    clockTolerance,
    requiredClaims: ['exp', 'sub'],
    ...(options.issuer !== undefined ? { issuer: options.issuer } : {}),
    ...(options.audience !== undefined ? { audience: options.audience } : {}),
    ...(options.typ !== undefined ? { typ: options.typ } : {}),
  };

  const verifyToken = async (token: string): Promise<Caller> => {
    try {
      if (typeof token !== 'string' || token === '') throw new Error('empty token');
      const known = cache.get(token);
      if (known !== undefined) return known;
      if (token.length > maxTokenBytes || encoder.encode(token).byteLength > maxTokenBytes) {
        throw new Error(`token longer than ${maxTokenBytes} bytes`);
      }
      const { payload } = await jwtVerify(token, key as Parameters<typeof jwtVerify>[1], verifyOptions);
      const sub = payload.sub;
      if (typeof sub !== 'string' || sub.trim() === '') throw new Error('sub must be a non-empty string');
      // A user id every store can keep (PostgreSQL refuses an unpaired surrogate; the memory store would not).
      if (LONE_SURROGATE.test(sub)) throw new Error('sub must be Unicode text');
      const role = payload[roleClaim];
      const caller: Caller = { userId: sub, role: typeof role === 'string' && role !== '' ? role : undefined, claims: Object.freeze({ ...payload }) };
      cache.remember(token, caller, payload);
      return caller;
    } catch (cause) {
      throw new ChatwireError('UNAUTHORIZED', INVALID, { cause });
    }
  };
  return Object.assign(verifyToken, { [REMEMBERED]: (token: string) => cache.get(token) });
}

function verificationKey(options: JwtVerifierOptions, algorithms: string[]): VerifyKey {
  if (options.secret !== undefined) {
    const secret = typeof options.secret === 'string' ? encoder.encode(options.secret) : options.secret;
    if (!(secret instanceof Uint8Array)) throw new ChatwireError('CONFIGURATION', 'JWT secret must be a string or Uint8Array');
    const needed = Math.max(...algorithms.map((alg) => HMAC_ALGORITHMS[alg] ?? 0));
    if (secret.byteLength < needed) {
      throw new ChatwireError(
        'CONFIGURATION',
        `JWT secret is ${secret.byteLength} bytes; ${algorithms.join('/')} needs at least ${needed} (use a random secret)`,
      );
    }
    return hmacKeyResolver(secret);
  }
  if (options.jwksUrl !== undefined) return createRemoteJWKSet(checkJwksUrl(options.jwksUrl));
  const publicKey = options.publicKey;
  if (typeof publicKey !== 'string') {
    if (typeof publicKey !== 'object' || publicKey === null || publicKey.type !== 'public') {
      throw new ChatwireError('CONFIGURATION', 'JWT publicKey must be a PEM string or a public CryptoKey');
    }
    return publicKey;
  }
  return pemKeyResolver(publicKey.trim());
}

const HMAC_HASH: Readonly<Record<string, string>> = { HS256: 'SHA-256', HS384: 'SHA-384', HS512: 'SHA-512' };

/**
 * Imports the secret once per HMAC algorithm actually used (jose would import a raw secret on every
 * verification). The alg was already checked against the allow-list when this is called.
 */
function hmacKeyResolver(secret: Uint8Array): JWTVerifyGetKey {
  const imported = new Map<string, Promise<CryptoKey>>();
  return async ({ alg }) => {
    let key = imported.get(alg);
    if (key === undefined) {
      const hash = HMAC_HASH[alg];
      if (hash === undefined) throw new Error(`unsupported HMAC alg ${alg}`);
      key = crypto.subtle.importKey('raw', secret as Uint8Array<ArrayBuffer>, { name: 'HMAC', hash }, false, ['verify']);
      imported.set(alg, key);
    }
    return key;
  };
}

/** Imports the PEM once per algorithm actually used; a key of the wrong type for the token's alg fails verification. */
function pemKeyResolver(pem: string): JWTVerifyGetKey {
  const isCertificate = pem.startsWith('-----BEGIN CERTIFICATE-----');
  if (!isCertificate && !pem.startsWith('-----BEGIN PUBLIC KEY-----')) {
    throw new ChatwireError(
      'CONFIGURATION',
      'JWT publicKey must be PEM SPKI ("-----BEGIN PUBLIC KEY-----") or an X.509 certificate',
    );
  }
  const imported = new Map<string, Promise<CryptoKey>>();
  return async ({ alg }) => {
    let key = imported.get(alg);
    if (key === undefined) {
      key = isCertificate ? importX509(pem, alg) : importSPKI(pem, alg);
      imported.set(alg, key);
    }
    return key;
  };
}

function checkJwksUrl(value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ChatwireError('CONFIGURATION', 'jwksUrl is not a valid URL');
  }
  const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) {
    throw new ChatwireError('CONFIGURATION', 'jwksUrl must use https (plain http is allowed for localhost only)');
  }
  return url;
}
