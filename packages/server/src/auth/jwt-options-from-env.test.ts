import { isChatwireError } from '@chatwire/storage';
import { describe, expect, it } from 'vitest';
import { jwtOptionsFromEnv } from './jwt-options-from-env.js';

const SECRET = 'a-test-secret-that-is-at-least-32-bytes-long!';

function configurationError(env: Record<string, string | undefined>): Error {
  try {
    jwtOptionsFromEnv(env);
  } catch (error) {
    expect(isChatwireError(error, 'CONFIGURATION')).toBe(true);
    return error as Error;
  }
  throw new Error('expected CONFIGURATION');
}

describe('jwtOptionsFromEnv', () => {
  it('returns null when no key source is set (blank values count as unset)', () => {
    expect(jwtOptionsFromEnv({})).toBeNull();
    expect(jwtOptionsFromEnv({ CHATWIRE_JWT_SECRET: '', CHATWIRE_JWKS_URL: '  ', PORT: '3000' })).toBeNull();
  });

  it('CHATWIRE_JWT_SECRET -> HS256 only, with issuer and a comma-listed audience', () => {
    expect(
      jwtOptionsFromEnv({ CHATWIRE_JWT_SECRET: SECRET, CHATWIRE_JWT_ISSUER: ' https://issuer.test ', CHATWIRE_JWT_AUDIENCE: 'web, mobile,,' }),
    ).toEqual({ secret: SECRET, algorithms: ['HS256'], issuer: 'https://issuer.test', audience: ['web', 'mobile'] });
  });

  it('CHATWIRE_JWKS_URL -> jwksUrl; a single audience stays a string', () => {
    expect(jwtOptionsFromEnv({ CHATWIRE_JWKS_URL: 'https://issuer.test/jwks.json', CHATWIRE_JWT_AUDIENCE: 'chatwire' })).toEqual({
      jwksUrl: 'https://issuer.test/jwks.json',
      audience: 'chatwire',
    });
  });

  it('CHATWIRE_JWT_PUBLIC_KEY -> publicKey, turning \\n escapes of a one-line env var into newlines', () => {
    const options = jwtOptionsFromEnv({
      CHATWIRE_JWT_PUBLIC_KEY: '-----BEGIN PUBLIC KEY-----\\nMIIB\\n-----END PUBLIC KEY-----',
    });
    expect(options).toEqual({ publicKey: '-----BEGIN PUBLIC KEY-----\nMIIB\n-----END PUBLIC KEY-----' });
  });

  it('refuses two key sources, naming them but not their values', () => {
    const error = configurationError({ CHATWIRE_JWT_SECRET: SECRET, CHATWIRE_JWKS_URL: 'https://issuer.test/jwks.json' });
    expect(error.message).toContain('CHATWIRE_JWT_SECRET and CHATWIRE_JWKS_URL');
    expect(error.message).not.toContain(SECRET);
  });

  it('refuses issuer or audience without a key (it would silently mean "no auth")', () => {
    expect(configurationError({ CHATWIRE_JWT_ISSUER: 'https://issuer.test' }).message).toContain('no key is');
    expect(configurationError({ CHATWIRE_JWT_AUDIENCE: 'chatwire' }).message).toContain('no key is');
  });
});
