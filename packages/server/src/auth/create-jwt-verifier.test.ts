import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isChatwireError } from '@chatwire/storage';
import { base64url, exportJWK, exportSPKI, generateKeyPair, SignJWT, type JWTPayload } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createJwtVerifier, type JwtVerifierOptions } from './create-jwt-verifier.js';

const SECRET = 'a-test-secret-that-is-at-least-32-bytes-long!';
const OTHER_SECRET = 'another-secret-that-is-at-least-32-bytes-long';
const enc = new TextEncoder();
const now = () => Math.floor(Date.now() / 1000);

let rsa: CryptoKeyPair;
let rsaPem: string;
let ec: CryptoKeyPair;
let ecPem: string;
let jwksServer: Server;
let jwksUrl: string;

beforeAll(async () => {
  rsa = await generateKeyPair('RS256', { extractable: true });
  rsaPem = await exportSPKI(rsa.publicKey);
  ec = await generateKeyPair('ES256', { extractable: true });
  ecPem = await exportSPKI(ec.publicKey);
  const jwks = { keys: [{ ...(await exportJWK(rsa.publicKey)), kid: 'rsa-1', alg: 'RS256', use: 'sig' }] };
  jwksServer = createServer((req, res) => {
    if (req.url !== '/.well-known/jwks.json') return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(jwks));
  });
  await new Promise<void>((resolve) => jwksServer.listen(0, '127.0.0.1', resolve));
  jwksUrl = `http://127.0.0.1:${(jwksServer.address() as AddressInfo).port}/.well-known/jwks.json`;
});
afterAll(() => new Promise<void>((resolve) => jwksServer.close(() => resolve())));

const claims = (extra: JWTPayload = {}): JWTPayload => ({ sub: 'user-1', exp: now() + 300, iat: now(), ...extra });

function hs(payload: JWTPayload, secret: string | Uint8Array = SECRET, alg = 'HS256') {
  return new SignJWT(payload).setProtectedHeader({ alg, typ: 'JWT' }).sign(typeof secret === 'string' ? enc.encode(secret) : secret);
}
function rs(payload: JWTPayload, header: Record<string, unknown> = {}) {
  return new SignJWT(payload).setProtectedHeader({ alg: 'RS256', typ: 'JWT', ...header }).sign(rsa.privateKey);
}
const part = (value: unknown) => base64url.encode(JSON.stringify(value));
/** RS256 over an arbitrary header, signed with WebCrypto directly (jose refuses to sign an unknown crit). */
async function rsRaw(header: Record<string, unknown>, payload: JWTPayload): Promise<string> {
  const input = `${part(header)}.${part(payload)}`;
  const signature = await crypto.subtle.sign('RSASSA-PKCS1-v1_5', rsa.privateKey, enc.encode(input));
  return `${input}.${base64url.encode(new Uint8Array(signature))}`;
}

async function rejection(verify: (token: string) => Promise<unknown>, token: string): Promise<unknown> {
  try {
    await verify(token);
  } catch (error) {
    return error;
  }
  throw new Error('token was accepted');
}

describe('createJwtVerifier: hostile tokens', () => {
  const hsOptions: JwtVerifierOptions = { secret: SECRET, issuer: 'https://issuer.test', audience: ['chatwire', 'other'] };
  const hsIssued = (extra: JWTPayload = {}) => hs(claims({ iss: 'https://issuer.test', aud: 'chatwire', ...extra }));

  const cases: Array<[string, 'hs' | 'rs', () => Promise<string> | string]> = [
    ['alg none', 'hs', () => `${part({ alg: 'none', typ: 'JWT' })}.${part(claims())}.`],
    ['alg none against RS256', 'rs', () => `${part({ alg: 'none' })}.${part(claims())}.`],
    ['HS256 signed with the public key text (algorithm confusion)', 'rs', () => hs(claims(), rsaPem)],
    ['HS512 when only HS256 is allowed', 'hs', () => hs(claims({ iss: 'https://issuer.test', aud: 'chatwire' }), `${SECRET}${SECRET}`, 'HS512')],
    ['signed with another secret', 'hs', () => hs(claims({ iss: 'https://issuer.test', aud: 'chatwire' }), OTHER_SECRET)],
    ['signed with another RSA key', 'rs', async () => {
      const other = await generateKeyPair('RS256');
      return new SignJWT(claims()).setProtectedHeader({ alg: 'RS256' }).sign(other.privateKey);
    }],
    ['payload swapped after signing', 'hs', async () => {
      const [header, , signature] = (await hsIssued()).split('.');
      return `${header}.${part(claims({ sub: 'admin', iss: 'https://issuer.test', aud: 'chatwire' }))}.${signature}`;
    }],
    ['signature truncated', 'hs', async () => (await hsIssued()).slice(0, -4)],
    ['expired beyond the tolerance', 'hs', () => hsIssued({ exp: now() - 60 })],
    ['nbf in the future', 'hs', () => hsIssued({ nbf: now() + 60 })],
    ['missing exp', 'hs', () => hsIssued({ exp: undefined })],
    ['missing sub', 'hs', () => hsIssued({ sub: undefined })],
    ['empty sub', 'hs', () => hsIssued({ sub: '' })],
    ['blank sub', 'hs', () => hsIssued({ sub: '   ' })],
    ['sub with an unpaired surrogate (no store can keep it as a user id)', 'hs', () => hsIssued({ sub: 'ann\ud800' })],
    ['numeric sub', 'hs', () => hs({ ...claims({ iss: 'https://issuer.test', aud: 'chatwire' }), sub: 42 } as unknown as JWTPayload)],
    ['wrong issuer', 'hs', () => hsIssued({ iss: 'https://evil.test' })],
    ['missing issuer', 'hs', () => hs(claims({ aud: 'chatwire' }))],
    ['wrong audience', 'hs', () => hsIssued({ aud: 'someone-else' })],
    ['oversized (validly signed)', 'hs', () => hsIssued({ padding: 'x'.repeat(9000) })],
    ['unknown crit header', 'rs', () => rsRaw({ alg: 'RS256', crit: ['x-unknown'], 'x-unknown': true }, claims())],
    ['malformed: not a JWT', 'hs', () => 'not-a-jwt'],
    ['malformed: garbage segments', 'hs', () => 'a.b.c'],
    ['malformed: header is not JSON', 'hs', () => `${base64url.encode('{alg')}.${part(claims())}.sig`],
    ['malformed: five segments (JWE shape)', 'hs', () => 'a.b.c.d.e'],
    ['empty string', 'hs', () => ''],
  ];

  it.each(cases)('rejects %s with the one UNAUTHORIZED message', async (_label, kind, make) => {
    const verify = createJwtVerifier(kind === 'hs' ? hsOptions : { publicKey: rsaPem, algorithms: ['RS256'] });
    const error = await rejection(verify, await make());
    expect(isChatwireError(error, 'UNAUTHORIZED')).toBe(true);
    expect((error as Error).message).toBe('Missing or invalid bearer token');
    expect((error as Error).cause).toBeDefined();
  });

  it('accepts a well-formed token with the same configuration (the table is not rejecting everything)', async () => {
    await expect(createJwtVerifier(hsOptions)(await hsIssued())).resolves.toMatchObject({ userId: 'user-1' });
    const rsVerify = createJwtVerifier({ publicKey: rsaPem, algorithms: ['RS256'] });
    await expect(rsVerify(await rs(claims()))).resolves.toMatchObject({ userId: 'user-1' });
    await expect(rsVerify(await rsRaw({ alg: 'RS256' }, claims()))).resolves.toMatchObject({ userId: 'user-1' });
  });
});

describe('createJwtVerifier: valid tokens', () => {
  it('HS256: returns the caller with role and frozen claims', async () => {
    const verify = createJwtVerifier({ secret: SECRET });
    const caller = await verify(await hs(claims({ role: 'admin', email: 'u@example.test' })));
    expect(caller).toEqual({ userId: 'user-1', role: 'admin', claims: expect.objectContaining({ sub: 'user-1', email: 'u@example.test' }) });
    expect(Object.isFrozen(caller.claims)).toBe(true);
  });

  it('reads the role from a custom claim and ignores a non-string role', async () => {
    const verify = createJwtVerifier({ secret: SECRET, roleClaim: 'https://app.test/role' });
    expect((await verify(await hs(claims({ 'https://app.test/role': 'editor', role: 'admin' })))).role).toBe('editor');
    expect((await verify(await hs(claims({ 'https://app.test/role': ['editor'] })))).role).toBeUndefined();
  });

  it('tolerates clock skew within clockToleranceSec', async () => {
    const verify = createJwtVerifier({ secret: SECRET, clockToleranceSec: 120 });
    await expect(verify(await hs(claims({ exp: now() - 30, nbf: now() + 30 })))).resolves.toMatchObject({ userId: 'user-1' });
  });

  it('RS256 via a PEM public key, and via a CryptoKey', async () => {
    await expect(createJwtVerifier({ publicKey: rsaPem })(await rs(claims()))).resolves.toMatchObject({ userId: 'user-1' });
    await expect(createJwtVerifier({ publicKey: rsa.publicKey, algorithms: ['RS256'] })(await rs(claims()))).resolves.toMatchObject({
      userId: 'user-1',
    });
  });

  it('ES256 via a PEM public key; an RS256 token is refused by that EC key', async () => {
    const verify = createJwtVerifier({ publicKey: ecPem, algorithms: ['ES256', 'RS256'] });
    const token = await new SignJWT(claims()).setProtectedHeader({ alg: 'ES256' }).sign(ec.privateKey);
    await expect(verify(token)).resolves.toMatchObject({ userId: 'user-1' });
    expect(isChatwireError(await rejection(verify, await rs(claims())), 'UNAUTHORIZED')).toBe(true);
  });

  it('JWKS served over HTTP: accepts a token whose kid is in the set, rejects an unknown kid', async () => {
    const verify = createJwtVerifier({ jwksUrl, algorithms: ['RS256'], issuer: 'https://issuer.test', audience: 'chatwire' });
    const ok = await rs(claims({ iss: 'https://issuer.test', aud: 'chatwire' }), { kid: 'rsa-1' });
    await expect(verify(ok)).resolves.toMatchObject({ userId: 'user-1' });
    const unknownKid = await rs(claims({ iss: 'https://issuer.test', aud: 'chatwire' }), { kid: 'rsa-2' });
    const error = await rejection(verify, unknownKid);
    expect(isChatwireError(error, 'UNAUTHORIZED')).toBe(true);
    expect((error as Error).message).toBe('Missing or invalid bearer token');
  });
});

describe('createJwtVerifier: configuration errors at creation', () => {
  it.each<[string, JwtVerifierOptions, RegExp]>([
    ['no key source', {}, /one key source/],
    ['two key sources', { secret: SECRET, jwksUrl: 'https://issuer.test/jwks' }, /exactly one key source, got secret and jwksUrl/],
    ['HS256 secret shorter than 32 bytes', { secret: 'too-short' }, /9 bytes; HS256 needs at least 32/],
    ['HS512 with a 45-byte secret', { secret: SECRET, algorithms: ['HS256', 'HS512'] }, /needs at least 64/],
    ['none in the allow-list', { secret: SECRET, algorithms: ['none'] }, /'none' is not supported/],
    ['HMAC mixed with RSA', { secret: SECRET, algorithms: ['HS256', 'RS256'] }, /must not mix/],
    ['HS256 with a public key', { publicKey: '-----BEGIN PUBLIC KEY-----\nx\n-----END PUBLIC KEY-----', algorithms: ['HS256'] }, /cannot verify HS256/],
    ['RS256 with a secret', { secret: SECRET, algorithms: ['RS256'] }, /only verifies HS256/],
    ['empty allow-list', { secret: SECRET, algorithms: [] }, /must not be empty/],
    ['public key that is not PEM', { publicKey: 'MIIBIjANBgkqh' }, /PEM SPKI/],
    ['JWKS over plain http to a remote host', { jwksUrl: 'http://issuer.test/jwks' }, /must use https/],
    ['JWKS URL that is not a URL', { jwksUrl: 'issuer.test/jwks' }, /not a valid URL/],
    ['negative clock tolerance', { secret: SECRET, clockToleranceSec: -1 }, /clockToleranceSec/],
    ['negative cache size', { secret: SECRET, cacheSize: -1 }, /cacheSize/],
  ])('%s -> CONFIGURATION', (_label, options, message) => {
    let error: unknown;
    try {
      createJwtVerifier(options);
    } catch (e) {
      error = e;
    }
    expect(isChatwireError(error, 'CONFIGURATION')).toBe(true);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toContain(SECRET);
  });
});

describe('createJwtVerifier: remembered tokens', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  /** Fakes only the clock (promises and timers stay real). */
  const at = (seconds: number) => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(seconds * 1000);
  };

  it('checks the signature once per token string; cacheSize 0 checks it every time', async () => {
    const verifySignature = vi.spyOn(crypto.subtle, 'verify');
    const token = await hs(claims());
    const remembering = createJwtVerifier({ secret: SECRET });
    for (let i = 0; i < 3; i++) await expect(remembering(token)).resolves.toMatchObject({ userId: 'user-1' });
    expect(verifySignature).toHaveBeenCalledTimes(1);
    const forgetting = createJwtVerifier({ secret: SECRET, cacheSize: 0 });
    for (let i = 0; i < 3; i++) await expect(forgetting(token)).resolves.toMatchObject({ userId: 'user-1' });
    expect(verifySignature).toHaveBeenCalledTimes(4);
  });

  it('refuses a remembered token from the second its exp (plus leeway) passes, with the same cause as a fresh check', async () => {
    const start = now();
    const token = await hs(claims({ iat: start, exp: start + 60 }));
    const verify = createJwtVerifier({ secret: SECRET, clockToleranceSec: 5 });
    at(start);
    await expect(verify(token)).resolves.toMatchObject({ userId: 'user-1' });
    at(start + 64.999); // floor: start + 64, exp is start + 60: still within the 5 s leeway
    await expect(verify(token)).resolves.toMatchObject({ userId: 'user-1' });
    at(start + 65);
    const remembered = await rejection(verify, token);
    const fresh = await rejection(createJwtVerifier({ secret: SECRET, clockToleranceSec: 5 }), token);
    expect(isChatwireError(remembered, 'UNAUTHORIZED')).toBe(true);
    expect((remembered as Error).cause).toMatchObject({ code: 'ERR_JWT_EXPIRED' });
    expect((fresh as Error).cause).toMatchObject({ code: 'ERR_JWT_EXPIRED' });
    // And it stays refused (it was forgotten, not answered from memory again).
    at(start + 30);
    await expect(verify(token)).resolves.toMatchObject({ userId: 'user-1' });
  });

  it('refuses a remembered token whose nbf is ahead again when the clock goes back', async () => {
    const start = now();
    const token = await hs(claims({ iat: start, nbf: start, exp: start + 600 }));
    const verify = createJwtVerifier({ secret: SECRET, clockToleranceSec: 5 });
    at(start);
    await expect(verify(token)).resolves.toMatchObject({ userId: 'user-1' });
    at(start - 5);
    await expect(verify(token)).resolves.toMatchObject({ userId: 'user-1' });
    at(start - 6);
    const error = await rejection(verify, token);
    expect(isChatwireError(error, 'UNAUTHORIZED')).toBe(true);
    expect((error as Error).cause).toMatchObject({ code: 'ERR_JWT_CLAIM_VALIDATION_FAILED', claim: 'nbf' });
  });

  it('gives every call its own caller object over the same frozen claims', async () => {
    const verify = createJwtVerifier({ secret: SECRET });
    const token = await hs(claims({ role: 'admin' }));
    const first = await verify(token);
    (first as { userId: string }).userId = 'changed by the first request';
    const second = await verify(token);
    expect(second).toEqual({ userId: 'user-1', role: 'admin', claims: expect.objectContaining({ sub: 'user-1' }) });
    expect(second).not.toBe(first);
    expect(Object.isFrozen(second.claims)).toBe(true);
  });

  it('remembers a token verified against a JWKS for 60 s at most', async () => {
    const verifySignature = vi.spyOn(crypto.subtle, 'verify');
    const verify = createJwtVerifier({ jwksUrl, algorithms: ['RS256'] });
    const start = now();
    const token = await rs(claims({ iat: start, exp: start + 600 }), { kid: 'rsa-1' });
    at(start);
    await verify(token);
    at(start + 59);
    await verify(token);
    expect(verifySignature).toHaveBeenCalledTimes(1);
    at(start + 60);
    await verify(token);
    expect(verifySignature).toHaveBeenCalledTimes(2);
  });
});
