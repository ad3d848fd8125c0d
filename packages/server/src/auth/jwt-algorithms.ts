import { ChatwireError } from '@chatwire/storage';

/** HMAC algorithms and the minimum secret size RFC 7518 3.2 requires for each (the hash output size). */
export const HMAC_ALGORITHMS: Readonly<Record<string, number>> = { HS256: 32, HS384: 48, HS512: 64 };

export const ASYMMETRIC_ALGORITHMS: readonly string[] = [
  'RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519',
];

export const DEFAULT_HMAC_ALGORITHMS = ['HS256'];
export const DEFAULT_ASYMMETRIC_ALGORITHMS = ['RS256', 'ES256', 'EdDSA'];

/**
 * The explicit algorithm allow-list for one key kind (RFC 8725 3.1): never `none`, never HMAC mixed with
 * asymmetric algorithms (that mix is what algorithm-confusion attacks exploit).
 */
export function checkAlgorithms(kind: 'hmac' | 'asymmetric', requested: readonly string[] | undefined): string[] {
  const algorithms = [...(requested ?? (kind === 'hmac' ? DEFAULT_HMAC_ALGORITHMS : DEFAULT_ASYMMETRIC_ALGORITHMS))];
  if (algorithms.length === 0) throw new ChatwireError('CONFIGURATION', 'JWT algorithms must not be empty');
  const hmac = algorithms.filter((alg) => Object.hasOwn(HMAC_ALGORITHMS, alg));
  const asymmetric = algorithms.filter((alg) => ASYMMETRIC_ALGORITHMS.includes(alg));
  const unknown = algorithms.filter((alg) => !hmac.includes(alg) && !asymmetric.includes(alg));
  if (unknown.length > 0) {
    throw new ChatwireError('CONFIGURATION', `JWT algorithm ${unknown.map((a) => `'${a}'`).join(', ')} is not supported`);
  }
  if (hmac.length > 0 && asymmetric.length > 0) {
    throw new ChatwireError('CONFIGURATION', 'JWT algorithms must not mix HMAC (HS*) with asymmetric ones');
  }
  if (kind === 'hmac' && asymmetric.length > 0) {
    throw new ChatwireError('CONFIGURATION', `JWT secret only verifies HS256/HS384/HS512, not ${asymmetric.join(', ')}`);
  }
  if (kind === 'asymmetric' && hmac.length > 0) {
    throw new ChatwireError('CONFIGURATION', `JWT publicKey/jwksUrl cannot verify ${hmac.join(', ')}; use secret for HMAC`);
  }
  return algorithms;
}
