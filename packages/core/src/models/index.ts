export type { ProviderName, ProviderOptions, ProvidersOptions, ModelEntry, ProviderEnv } from './model-types.js';
export {
  MODEL_ALLOW_LIST,
  MODEL_IDS,
  MODEL_LABELS,
  DEFAULT_MODEL_ID,
  isModelId,
  resolveModelId,
  type ModelId,
} from './model-allow-list.js';
export { createProvider, type CreateProviderOptions } from './create-provider.js';
export { isProviderConfigured, type ProviderConnection } from './resolve-provider-connection.js';
export { modelOptionsFromEnv, type ModelEnvOptions } from './model-options-from-env.js';
export { parseModelMap } from './parse-model-map.js';
export {
  createModelRegistry,
  type ModelRegistry,
  type ModelRegistryOptions,
  type ModelListEntry,
} from './create-model-registry.js';
