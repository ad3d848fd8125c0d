import type { LanguageModelV2 } from '@ai-sdk/provider';
import { ChatwireError } from '@chatwire/storage';
import { wrapLanguageModel } from 'ai';
import type { AppLanguageModel } from '../model-specs/app-language-model.js';
import { buildServedModels, checkAppModel, type ServedModel } from './build-served-models.js';
import { createProvider, type CreateProviderOptions } from './create-provider.js';
import { inlineToolHistoryMiddleware } from './inline-tool-history.js';
import { modelNotAllowed } from './model-allow-list.js';
import { portableToolCallIdsMiddleware } from './portable-tool-call-ids.js';
import { modelOptionsFromEnv } from './model-options-from-env.js';
import type { ModelEntry, ProviderEnv, ProviderName, ProvidersOptions } from './model-types.js';
import { configError } from './parse-model-map.js';
import { howToConfigure, isProviderConfigured, PROVIDER_ENV_PREFIX } from './resolve-provider-connection.js';

export interface ModelRegistryOptions {
  /** How each of the three providers is reached (default: none configured). */
  providers?: ProvidersOptions;
  /** Bearer token of gateway calls made without a caller token: the app owner pays (APP_OWNER_JWT). */
  appOwnerToken?: string;
  /**
   * The allow-list. Omitted: the seven built-in ids, each served by its provider. Given: exactly these ids,
   * each an AI SDK model instance of the app (`{ model, label?, provider? }`, any provider package) or a
   * model of one of the three providers (`{ provider, vendorId?, label? }`).
   */
  models?: Record<string, ModelEntry>;
  /** The model of a turn that names none (default: alpha-sonnet-4-6, or the first of `models`). */
  defaultModelId?: string;
  /** Chatwire id -> the vendor's id sent to the provider (CHATWIRE_MODEL_MAP); rows and streams keep chatwire's id. */
  modelMap?: Record<string, string>;
  /** Passed to every provider (tests, proxies). */
  fetch?: typeof fetch;
  /**
   * Used for every provider-served id when NO provider is configured (the examples' demo mode, e.g.
   * `createDemoModel()`), of any known specification as in `models`. Ignored as soon as one provider is configured.
   */
  fallbackModel?: AppLanguageModel;
  /** provider_a `max_tokens` when a call sets none (see `createProvider`). Default 4096. */
  defaultMaxOutputTokens?: number;
  /** provider_a's stream fast path (see `CreateProviderOptions.fastPath`; CHATWIRE_PROVIDER_FAST_PATH). Default true. */
  fastPath?: boolean;
  /**
   * @deprecated Use `providers`, `appOwnerToken` and `modelMap` (`fromEnv` maps the environment onto them).
   * Read with the same mapping; the typed options win where both are given.
   */
  env?: ProviderEnv;
}

export interface ModelListEntry {
  modelId: string;
  provider: string;
  label: string;
  available: boolean;
}

export interface ModelRegistry {
  /** The model of a turn that names none. */
  readonly defaultModelId: string;
  /** `undefined` -> default model; anything off the allow-list -> `MODEL_NOT_ALLOWED`. */
  resolve(modelId?: unknown): { modelId: string; provider: string };
  /** A model for one turn. `authToken` is the caller's JWT (omit it and the app owner pays); app instances ignore it. */
  languageModel(modelId: string, options?: { authToken?: string }): LanguageModelV2;
  isConfigured(provider: ProviderName): boolean;
  anyConfigured(): boolean;
  /** True when no provider is configured and the fallback model answers for the provider-served ids. */
  usesFallback(): boolean;
  /** Every allow-listed model in order; `available` when a call to it can be made. */
  list(): ModelListEntry[];
  /** The cheapest configured model for summaries: alpha-haiku-4-5, beta-5.4-nano, gamma-oss-120b, else null. */
  summarizerModelId(): string | null;
}

const SUMMARIZER_PREFERENCE: readonly string[] = ['alpha-haiku-4-5', 'beta-5.4-nano', 'gamma-oss-120b'];
const PROVIDERS = Object.keys(PROVIDER_ENV_PREFIX) as ProviderName[];

/**
 * Allow-list + provider factory in one object. Options are read once, at creation, and every configuration
 * problem throws CONFIGURATION there. A provider instance is created per call (it is a few closures) so no
 * caller token is ever cached.
 */
export function createModelRegistry(options: ModelRegistryOptions = {}): ModelRegistry {
  const fromEnv = options.env === undefined ? undefined : modelOptionsFromEnv(options.env);
  const providers = checkProviders(options.providers ?? fromEnv?.providers ?? {});
  const appOwnerToken = options.appOwnerToken ?? fromEnv?.appOwnerToken;
  const fastPath = options.fastPath ?? fromEnv?.fastPath;
  const served = buildServedModels({
    models: options.models,
    modelMap: options.modelMap ?? fromEnv?.modelMap,
    defaultModelId: options.defaultModelId,
  });
  const allowed = [...served.byId.keys()];
  const configured = new Map(PROVIDERS.map((p) => [p, isProviderConfigured(providers[p], p)] as const));
  const anyConfigured = [...configured.values()].some(Boolean);
  const fallbackModel = options.fallbackModel === undefined ? undefined : checkAppModel('fallbackModel', options.fallbackModel);
  const fallback = anyConfigured ? undefined : fallbackModel;
  const servesProviders = [...served.byId.values()].some((m) => m.kind === 'provider');
  const instances = new Map<string, LanguageModelV2>();

  const isConfigured = (provider: ProviderName): boolean => configured.get(provider) === true;
  const lookup = (modelId: unknown): ServedModel => {
    if (modelId === undefined) return served.byId.get(served.defaultModelId)!;
    const model = typeof modelId === 'string' ? served.byId.get(modelId) : undefined;
    if (model === undefined) throw modelNotAllowed(modelId, allowed);
    return model;
  };
  const available = (model: ServedModel): boolean =>
    model.kind === 'instance' || fallback !== undefined || isConfigured(model.provider);

  return {
    defaultModelId: served.defaultModelId,
    resolve(modelId) {
      const { id, provider } = lookup(modelId);
      return { modelId: id, provider };
    },
    languageModel(modelId, callOptions = {}) {
      const model = lookup(modelId);
      if (model.kind === 'instance') {
        let wrapped = instances.get(model.id);
        if (wrapped === undefined) {
          wrapped = wrapLanguageModel({ model: model.model, middleware: [inlineToolHistoryMiddleware, portableToolCallIdsMiddleware] });
          instances.set(model.id, wrapped);
        }
        return wrapped;
      }
      if (fallback !== undefined) return fallback;
      const { provider } = model;
      if (!isConfigured(provider)) {
        throw new ChatwireError(
          'PROVIDER_NOT_CONFIGURED',
          `model '${model.id}' needs ${provider}, which is not configured: ${howToConfigure(provider)}`,
          { details: { modelId: model.id, provider } },
        );
      }
      const factoryOptions: CreateProviderOptions = {};
      if (callOptions.authToken !== undefined) factoryOptions.authToken = callOptions.authToken;
      if (appOwnerToken !== undefined) factoryOptions.appOwnerToken = appOwnerToken;
      if (options.fetch !== undefined) factoryOptions.fetch = options.fetch;
      if (options.defaultMaxOutputTokens !== undefined) factoryOptions.defaultMaxOutputTokens = options.defaultMaxOutputTokens;
      if (fastPath !== undefined) factoryOptions.fastPath = fastPath;
      return createProvider(providers[provider], provider, factoryOptions)(model.vendorId);
    },
    isConfigured,
    anyConfigured: () => anyConfigured,
    usesFallback: () => fallback !== undefined && servesProviders,
    list: () =>
      [...served.byId.values()].map((model) => ({
        modelId: model.id,
        provider: model.provider,
        label: model.label,
        available: available(model),
      })),
    summarizerModelId: () =>
      SUMMARIZER_PREFERENCE.find((id) => {
        const model = served.byId.get(id);
        return model?.kind === 'provider' && isConfigured(model.provider);
      }) ?? null,
  };
}

function checkProviders(providers: ProvidersOptions): ProvidersOptions {
  if (typeof providers !== 'object' || providers === null || Array.isArray(providers)) {
    throw configError('providers', 'must be an object keyed by provider name');
  }
  for (const [name, settings] of Object.entries(providers)) {
    if (!Object.hasOwn(PROVIDER_ENV_PREFIX, name)) {
      throw configError('providers', `unknown provider '${name}'; known: ${PROVIDERS.join(', ')}`);
    }
    if (settings === undefined) continue;
    if (typeof settings !== 'object' || settings === null) throw configError(`providers.${name}`, 'must be an object');
    for (const field of ['baseURL', 'apiKey'] as const) {
      if (settings[field] !== undefined && typeof settings[field] !== 'string') {
        throw configError(`providers.${name}.${field}`, 'must be a string');
      }
    }
    const headers = settings.headers;
    if (headers !== undefined && (typeof headers !== 'object' || headers === null || Object.values(headers).some((v) => typeof v !== 'string'))) {
      throw configError(`providers.${name}.headers`, 'must be an object of header name -> string');
    }
  }
  return { ...providers };
}
