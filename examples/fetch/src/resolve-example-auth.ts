import { randomBytes } from 'node:crypto';
import { jwtOptionsFromEnv } from '@chatwire/server';

export type ExampleEnv = Record<string, string | undefined>;

export interface ExampleAuth {
  /** The environment with CHATWIRE_JWT_SECRET filled in when dev mode made one up. */
  env: ExampleEnv;
  /** Set in dev mode: the per-start HS256 secret the dev sign-in route signs with. */
  devSecret: string | null;
}

export class ExampleConfigError extends Error {
  override readonly name = 'ExampleConfigError';
}

/**
 * JWT verification for the examples. A configured secret, public key or JWKS URL wins. Without one:
 * dev mode (a random secret per start and the dev-only sign-in route), except with
 * NODE_ENV=production, where a missing key is a configuration error.
 */
export function resolveExampleAuth(env: ExampleEnv): ExampleAuth {
  if (jwtOptionsFromEnv(env)) return { env, devSecret: null };
  if (env.NODE_ENV === 'production') {
    throw new ExampleConfigError(
      'NODE_ENV=production needs JWT verification: set CHATWIRE_JWT_SECRET (HS256), CHATWIRE_JWT_PUBLIC_KEY or ' +
        'CHATWIRE_JWKS_URL. The dev sign-in is off in production.',
    );
  }
  const devSecret = randomBytes(32).toString('base64url');
  return { env: { ...env, CHATWIRE_JWT_SECRET: devSecret }, devSecret };
}
