import { ChatwireError } from '@chatwire/storage';
import type { ProviderName, ProviderOptions } from './model-types.js';

/**
 * How one provider is reached for one call. `gateway`: a base URL and no key; the credential is a bearer
 * token (the caller's JWT or the app owner's token). `direct`: an API key; the credential is the key.
 */
export interface ProviderConnection {
  mode: 'gateway' | 'direct';
  /** Base URL without trailing slashes; undefined in direct mode without a configured base URL. */
  baseURL: string | undefined;
  /** The bearer token (gateway) or API key (direct). Never put it in a message. */
  credential: string;
  headers: Record<string, string> | undefined;
}

/** The environment variable behind each provider's settings, named in configuration errors. */
export const PROVIDER_ENV_PREFIX: Record<ProviderName, string> = {
  provider_a: 'PROVIDER_A',
  provider_b: 'PROVIDER_B',
  provider_c: 'PROVIDER_C',
};

/** True when the provider has a base URL or a key (whether a turn also has a token is decided per call). */
export function isProviderConfigured(settings: ProviderOptions | undefined, providerName: ProviderName): boolean {
  const baseURL = nonEmpty(settings?.baseURL);
  // provider_c (openai-compatible) has no vendor default endpoint, so a key alone is not enough.
  if (providerName === 'provider_c') return baseURL !== undefined;
  return baseURL !== undefined || nonEmpty(settings?.apiKey) !== undefined;
}

/** `providers.provider_b.baseURL (PROVIDER_B_BASE_URL)`: the option and the variable `fromEnv` reads it from. */
export function settingName(providerName: ProviderName, field: 'baseURL' | 'apiKey'): string {
  return `providers.${providerName}.${field} (${envName(providerName, field)})`;
}

function envName(providerName: ProviderName, field: 'baseURL' | 'apiKey'): string {
  return `${PROVIDER_ENV_PREFIX[providerName]}_${field === 'baseURL' ? 'BASE_URL' : 'API_KEY'}`;
}

/** What to set so a provider is configured, as options and as environment variables. */
export function howToConfigure(providerName: ProviderName): string {
  const option = `providers.${providerName}`;
  return `set ${option}.baseURL (gateway) or ${option}.apiKey (direct); in the environment ${envName(providerName, 'baseURL')} or ${envName(providerName, 'apiKey')}`;
}

export function resolveProviderConnection(
  settings: ProviderOptions | undefined,
  providerName: ProviderName,
  authToken: string | undefined,
  appOwnerToken: string | undefined,
): ProviderConnection {
  if (!Object.hasOwn(PROVIDER_ENV_PREFIX, providerName)) {
    throw new ChatwireError('PROVIDER_NOT_CONFIGURED', `unknown provider '${String(providerName)}'`);
  }
  const rawBaseURL = nonEmpty(settings?.baseURL);
  const apiKey = nonEmpty(settings?.apiKey);
  const headers = settings?.headers;
  const baseURL = rawBaseURL === undefined ? undefined : checkBaseURL(rawBaseURL, providerName);
  if (apiKey !== undefined) return { mode: 'direct', baseURL, credential: apiKey, headers };
  if (baseURL === undefined) {
    throw new ChatwireError(
      'PROVIDER_NOT_CONFIGURED',
      `${providerName} is not configured: ${howToConfigure(providerName)}`,
      { details: { provider: providerName } },
    );
  }
  if (authToken !== undefined && (typeof authToken !== 'string' || authToken.trim() === '')) {
    // Never fall back to the app owner's token because the caller's one is blank: that would bill the owner.
    throw new ChatwireError('UNAUTHORIZED', `authToken for ${providerName} is empty`);
  }
  const token = authToken?.trim() ?? nonEmpty(appOwnerToken);
  if (token === undefined) {
    throw new ChatwireError(
      'PROVIDER_NOT_CONFIGURED',
      `${providerName} gateway needs a bearer token: pass authToken or set appOwnerToken (APP_OWNER_JWT)`,
      { details: { provider: providerName } },
    );
  }
  return { mode: 'gateway', baseURL, credential: token, headers };
}

function checkBaseURL(value: string, providerName: ProviderName): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    url = new URL('invalid:');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    // The value itself is not repeated: a URL may carry credentials.
    throw new ChatwireError('PROVIDER_NOT_CONFIGURED', `${settingName(providerName, 'baseURL')} is not an http(s) URL`, {
      details: { provider: providerName },
    });
  }
  return value.replace(/\/+$/, '');
}

export function nonEmpty(value: string | undefined): string | undefined {
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}
