import type { AppLanguageModel } from '../model-specs/app-language-model.js';

export type ProviderName = 'provider_a' | 'provider_b' | 'provider_c';

/**
 * How chatwire reaches one provider. Gateway mode: `baseURL` without `apiKey`; each call carries a bearer
 * token (the caller's JWT, or the registry's `appOwnerToken`). Direct mode: `apiKey`, sent the provider's
 * normal way; `baseURL` then defaults to the vendor's own endpoint (provider_c has none and needs one).
 */
export interface ProviderOptions {
  baseURL?: string;
  apiKey?: string;
  /** Extra headers on every request to this provider (added after the auth headers). */
  headers?: Record<string, string>;
}

export type ProvidersOptions = Partial<Record<ProviderName, ProviderOptions>>;

/**
 * An allow-listed model: either an AI SDK model instance the app configured itself (any provider package of
 * AI SDK 5, 6 or 7: specification `v2`, `v3` or `v4`), or a model served by one of chatwire's three providers under the vendor's id `vendorId` (default: the
 * chatwire id itself).
 */
export type ModelEntry =
  | { model: AppLanguageModel; label?: string; provider?: string }
  | { provider: ProviderName; vendorId?: string; label?: string };

/**
 * @deprecated Use `providers` and `appOwnerToken`; `fromEnv` maps these variables onto them.
 * The environment variables the provider settings used to be read from.
 */
export interface ProviderEnv {
  PROVIDER_A_BASE_URL?: string | undefined;
  PROVIDER_B_BASE_URL?: string | undefined;
  PROVIDER_C_BASE_URL?: string | undefined;
  PROVIDER_A_API_KEY?: string | undefined;
  PROVIDER_B_API_KEY?: string | undefined;
  PROVIDER_C_API_KEY?: string | undefined;
  APP_OWNER_JWT?: string | undefined;
  CHATWIRE_MODEL_MAP?: string | undefined;
  [key: string]: string | undefined;
}
