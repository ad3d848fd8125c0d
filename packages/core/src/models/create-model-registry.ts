import type { LanguageModelV2 } from '@ai-sdk/provider';
import { ChatwireError } from '@chatwire/storage';
import { createProvider, type CreateProviderOptions } from './create-provider.js';
import { MODEL_ALLOW_LIST, MODEL_IDS, resolveModelId, type ModelId } from './model-allow-list.js';
import type { ProviderEnv, ProviderName } from './model-types.js';
import { isProviderConfigured, PROVIDER_ENV_PREFIX } from './resolve-provider-connection.js';

export interface ModelRegistryOptions {
  /** Provider settings from the environment (default: none configured). */
  env?: ProviderEnv;
  /** Passed to every provider (tests, proxies). */
  fetch?: typeof fetch;
  /**
   * Used for every allow-listed id when NO provider is configured (the examples' demo mode, e.g.
   * `createDemoModel()`). Ignored as soon as one provider is configured.
   */
  fallbackModel?: LanguageModelV2;
  /** provider_a `max_tokens` when a call sets none (see `createProvider`). Default 4096. */
  defaultMaxOutputTokens?: number;
}

export interface ModelListEntry {
  modelId: ModelId;
  provider: ProviderName;
  available: boolean;
}

export interface ModelRegistry {
  /** `undefined` -> default model; anything off the allow-list -> `MODEL_NOT_ALLOWED`. */
  resolve(modelId?: unknown): { modelId: ModelId; provider: ProviderName };
  /** A model for one turn. `authToken` is the caller's JWT (omit it and APP_OWNER_JWT pays). */
  languageModel(modelId: ModelId, options?: { authToken?: string }): LanguageModelV2;
  isConfigured(provider: ProviderName): boolean;
  anyConfigured(): boolean;
  /** True when no provider is configured and the fallback model answers for every id. */
  usesFallback(): boolean;
  list(): ModelListEntry[];
  /** The cheapest configured model for summaries: alpha-haiku-4-5, beta-5.4-nano, gamma-oss-120b, else null. */
  summarizerModelId(): ModelId | null;
}

const SUMMARIZER_PREFERENCE: readonly ModelId[] = ['alpha-haiku-4-5', 'beta-5.4-nano', 'gamma-oss-120b'];
const PROVIDERS: readonly ProviderName[] = ['provider_a', 'provider_b', 'provider_c'];

/**
 * Allow-list + provider factory in one object. The environment is read once, at creation. A provider
 * instance is created per call (it is a few closures) so no caller token is ever cached.
 */
export function createModelRegistry(options: ModelRegistryOptions): ModelRegistry {
  const env: ProviderEnv = { ...options.env };
  const configured = new Map(PROVIDERS.map((p) => [p, isProviderConfigured(env, p)] as const));
  const anyConfigured = [...configured.values()].some(Boolean);
  const fallback = anyConfigured ? undefined : options.fallbackModel;

  const isConfigured = (provider: ProviderName): boolean => configured.get(provider) === true;

  return {
    resolve: (modelId) => resolveModelId(modelId),
    languageModel(modelId, callOptions = {}) {
      const { modelId: id, provider } = resolveModelId(modelId);
      if (fallback !== undefined) return fallback;
      if (!isConfigured(provider)) {
        const prefix = PROVIDER_ENV_PREFIX[provider];
        throw new ChatwireError(
          'PROVIDER_NOT_CONFIGURED',
          `model '${id}' needs ${provider}, which is not configured: set ${prefix}_BASE_URL or ${prefix}_API_KEY`,
          { details: { modelId: id, provider } },
        );
      }
      const factoryOptions: CreateProviderOptions = {};
      if (callOptions.authToken !== undefined) factoryOptions.authToken = callOptions.authToken;
      if (options.fetch !== undefined) factoryOptions.fetch = options.fetch;
      if (options.defaultMaxOutputTokens !== undefined) {
        factoryOptions.defaultMaxOutputTokens = options.defaultMaxOutputTokens;
      }
      return createProvider(env, provider, factoryOptions)(id);
    },
    isConfigured,
    anyConfigured: () => anyConfigured,
    usesFallback: () => fallback !== undefined,
    list: () =>
      MODEL_IDS.map((modelId) => {
        const provider = MODEL_ALLOW_LIST[modelId];
        return { modelId, provider, available: fallback !== undefined || isConfigured(provider) };
      }),
    summarizerModelId: () =>
      SUMMARIZER_PREFERENCE.find((modelId) => isConfigured(MODEL_ALLOW_LIST[modelId])) ?? null,
  };
}
