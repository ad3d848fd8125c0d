import { ChatwireError } from '@chatwire/storage';
import type { JwtVerifierOptions } from './create-jwt-verifier.js';

const KEY_VARS = ['CHATWIRE_JWT_SECRET', 'CHATWIRE_JWKS_URL', 'CHATWIRE_JWT_PUBLIC_KEY'] as const;

/**
 * Verifier options from the environment: `CHATWIRE_JWT_SECRET` (HS256), `CHATWIRE_JWKS_URL` or
 * `CHATWIRE_JWT_PUBLIC_KEY` (PEM; `\n` escapes allowed), plus optional `CHATWIRE_JWT_ISSUER` and
 * `CHATWIRE_JWT_AUDIENCE` (comma list). Returns null when no key source is set (what that means, e.g. a dev
 * mode, is the app's decision). Two key sources, or issuer/audience without a key, throw `CONFIGURATION`.
 */
export function jwtOptionsFromEnv(env: Record<string, string | undefined>): JwtVerifierOptions | null {
  const set = KEY_VARS.filter((name) => value(env, name) !== undefined);
  const issuer = value(env, 'CHATWIRE_JWT_ISSUER');
  const audience = (value(env, 'CHATWIRE_JWT_AUDIENCE') ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (set.length > 1) {
    throw new ChatwireError('CONFIGURATION', `Set only one of ${KEY_VARS.join(', ')} (got ${set.join(' and ')})`);
  }
  const [source] = set;
  if (source === undefined) {
    if (issuer !== undefined || audience.length > 0) {
      throw new ChatwireError(
        'CONFIGURATION',
        `CHATWIRE_JWT_ISSUER/CHATWIRE_JWT_AUDIENCE are set but no key is: set one of ${KEY_VARS.join(', ')}`,
      );
    }
    return null;
  }
  const raw = value(env, source)!;
  const options: JwtVerifierOptions =
    source === 'CHATWIRE_JWT_SECRET'
      ? { secret: raw, algorithms: ['HS256'] }
      : source === 'CHATWIRE_JWKS_URL'
        ? { jwksUrl: raw }
        : { publicKey: raw.replace(/\\n/g, '\n') };
  if (issuer !== undefined) options.issuer = issuer;
  if (audience.length > 0) options.audience = audience.length === 1 ? audience[0]! : audience;
  return options;
}

function value(env: Record<string, string | undefined>, name: string): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return undefined;
  return name === 'CHATWIRE_JWT_SECRET' ? raw : raw.trim();
}
