import { randomUUID } from 'node:crypto';
import { importPKCS8, SignJWT, type CryptoKey, type KeyObject } from 'jose';
import { ChatwireError, type Caller } from '@chatwire/storage';

/** How chatwire signs the tokens it sends MCP servers: never the key that verifies callers' tokens. */
export type McpSigningKey =
  /** HS256 with a shared secret of at least 32 bytes (every server that verifies holds it). */
  | { secret: string | Uint8Array }
  /** An asymmetric key (servers verify with the public key): a PKCS#8 PEM or a key object. */
  | { privateKey: string | CryptoKey | KeyObject; algorithm: 'RS256' | 'PS256' | 'ES256' | 'ES384' | 'EdDSA'; keyId?: string };

/** A token's life in seconds: short, so a token a server leaks is soon worthless. */
export const MCP_TOKEN_TTL_SECONDS = 60;

/** Signs `{ sub: caller, aud, iss, iat, exp: +60 s, jti }` for one server; each call gives a new `jti`. */
export type CallerTokenSigner = (caller: Caller, audience: string) => Promise<string>;

export function createCallerTokenSigner(key: McpSigningKey, issuer: string): CallerTokenSigner {
  let signingKey: Promise<Uint8Array | CryptoKey | KeyObject>;
  let algorithm: string;
  let keyId: string | undefined;
  if ('secret' in key) {
    const secret = typeof key.secret === 'string' ? new TextEncoder().encode(key.secret) : key.secret;
    if (!(secret instanceof Uint8Array) || secret.length < 32) {
      throw new ChatwireError('CONFIGURATION', 'mcpToolSource: signingKey.secret must be at least 32 bytes (HS256)');
    }
    signingKey = Promise.resolve(secret);
    algorithm = 'HS256';
  } else {
    algorithm = key.algorithm;
    keyId = key.keyId;
    signingKey = typeof key.privateKey === 'string' ? importPKCS8(key.privateKey, key.algorithm) : Promise.resolve(key.privateKey);
    // A bad PEM shows at the first turn as well; catching it here keeps an unhandled rejection away.
    signingKey.catch(() => undefined);
  }
  return async (caller, audience) =>
    new SignJWT({})
      .setProtectedHeader({ alg: algorithm, typ: 'JWT', ...(keyId === undefined ? {} : { kid: keyId }) })
      .setIssuer(issuer)
      .setSubject(caller.userId)
      .setAudience(audience)
      .setIssuedAt()
      .setExpirationTime(`${MCP_TOKEN_TTL_SECONDS}s`)
      .setJti(randomUUID())
      .sign(await signingKey);
}
