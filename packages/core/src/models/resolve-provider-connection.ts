import { ChatwireError } from '@chatwire/storage';
import type { ProviderEnv, ProviderName } from './model-types.js';

/**
 * How one provider is reached. `gateway`: `PROVIDER_X_BASE_URL` without a key; the credential is a bearer
 * token (the caller's JWT or APP_OWNER_JWT). `direct`: `PROVIDER_X_API_KEY`; the credential is the key.
 */
export interface ProviderConnection {
  mode: 'gateway' | 'direct';
  envPrefix: string;
  /** Base URL without trailing slashes; undefined in direct mode without a configured base URL. */
  baseURL: string | undefined;
  /** The bearer token (gateway) or API key (direct). Never put it in a message. */
  credential: string;
}

export const PROVIDER_ENV_PREFIX: Record<ProviderName, string> = {
  provider_a: 'PROVIDER_A',
  provider_b: 'PROVIDER_B',
  provider_c: 'PROVIDER_C',
};

/** True when the provider has a base URL or a key (whether a turn also has a token is decided per call). */
export function isProviderConfigured(env: ProviderEnv, providerName: ProviderName): boolean {
  const prefix = PROVIDER_ENV_PREFIX[providerName];
  const baseURL = nonEmpty(env[`${prefix}_BASE_URL`]);
  const apiKey = nonEmpty(env[`${prefix}_API_KEY`]);
  // provider_c (openai-compatible) has no vendor default endpoint, so a key alone is not enough.
  if (providerName === 'provider_c') return baseURL !== undefined;
  return baseURL !== undefined || apiKey !== undefined;
}

export function resolveProviderConnection(
  env: ProviderEnv,
  providerName: ProviderName,
  authToken: string | undefined,
): ProviderConnection {
  const envPrefix = PROVIDER_ENV_PREFIX[providerName];
  if (envPrefix === undefined) {
    throw new ChatwireError('PROVIDER_NOT_CONFIGURED', `unknown provider '${String(providerName)}'`);
  }
  const rawBaseURL = nonEmpty(env[`${envPrefix}_BASE_URL`]);
  const apiKey = nonEmpty(env[`${envPrefix}_API_KEY`]);
  const baseURL = rawBaseURL === undefined ? undefined : checkBaseURL(rawBaseURL, envPrefix, providerName);
  if (apiKey !== undefined) return { mode: 'direct', envPrefix, baseURL, credential: apiKey };
  if (baseURL === undefined) {
    throw new ChatwireError(
      'PROVIDER_NOT_CONFIGURED',
      `${providerName} is not configured: set ${envPrefix}_BASE_URL (gateway) or ${envPrefix}_API_KEY (direct)`,
      { details: { provider: providerName } },
    );
  }
  if (authToken !== undefined && (typeof authToken !== 'string' || authToken.trim() === '')) {
    // Never fall back to the app owner's token because the caller's one is blank: that would bill the owner.
    throw new ChatwireError('UNAUTHORIZED', `authToken for ${providerName} is empty`);
  }
  const token = authToken?.trim() ?? nonEmpty(env['APP_OWNER_JWT']);
  if (token === undefined) {
    throw new ChatwireError(
      'PROVIDER_NOT_CONFIGURED',
      `${providerName} gateway needs a bearer token: pass authToken or set APP_OWNER_JWT`,
      { details: { provider: providerName } },
    );
  }
  return { mode: 'gateway', envPrefix, baseURL, credential: token };
}

function checkBaseURL(value: string, envPrefix: string, providerName: ProviderName): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    url = new URL('invalid:');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    // The value itself is not repeated: a URL may carry credentials.
    throw new ChatwireError(
      'PROVIDER_NOT_CONFIGURED',
      `${envPrefix}_BASE_URL is not an http(s) URL`,
      { details: { provider: providerName } },
    );
  }
  return value.replace(/\/+$/, '');
}

function nonEmpty(value: string | undefined): string | undefined {
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}
