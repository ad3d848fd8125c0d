export type { ProviderName, ProviderEnv } from './model-types.js';
export {
  MODEL_ALLOW_LIST,
  MODEL_IDS,
  DEFAULT_MODEL_ID,
  isModelId,
  resolveModelId,
  type ModelId,
} from './model-allow-list.js';
export { createProvider, type CreateProviderOptions } from './create-provider.js';
export { isProviderConfigured, type ProviderConnection } from './resolve-provider-connection.js';
export {
  createModelRegistry,
  type ModelRegistry,
  type ModelRegistryOptions,
  type ModelListEntry,
} from './create-model-registry.js';
