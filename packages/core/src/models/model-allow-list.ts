import { ChatwireError } from '@chatwire/storage';
import type { ProviderName } from './model-types.js';

/** The models a turn may use (spec 4.6) and the provider that serves each. Nothing else is ever called. */
export const MODEL_ALLOW_LIST = {
  'alpha-opus-4-7': 'provider_a',
  'alpha-sonnet-4-6': 'provider_a',
  'alpha-haiku-4-5': 'provider_a',
  'beta-5.4': 'provider_b',
  'beta-5.4-mini': 'provider_b',
  'beta-5.4-nano': 'provider_b',
  'gamma-oss-120b': 'provider_c',
} as const satisfies Record<string, ProviderName>;

export type ModelId = keyof typeof MODEL_ALLOW_LIST;

/** What `GET /models` shows for each allow-listed id. */
export const MODEL_LABELS: Record<ModelId, string> = {
  'alpha-opus-4-7': 'Alpha Opus 4.7',
  'alpha-sonnet-4-6': 'Alpha Sonnet 4.6',
  'alpha-haiku-4-5': 'Alpha Haiku 4.5',
  'beta-5.4': 'Beta 5.4',
  'beta-5.4-mini': 'Beta 5.4 Mini',
  'beta-5.4-nano': 'Beta 5.4 Nano',
  'gamma-oss-120b': 'Gamma OSS 120B',
};

/** Used when a turn names no model (spec 4.6). */
export const DEFAULT_MODEL_ID: ModelId = 'alpha-sonnet-4-6';

/** The allow-listed ids in table order. */
export const MODEL_IDS = Object.keys(MODEL_ALLOW_LIST) as ModelId[];

export function isModelId(value: unknown): value is ModelId {
  return typeof value === 'string' && Object.hasOwn(MODEL_ALLOW_LIST, value);
}

/**
 * `undefined` -> the default model. Anything not on the allow-list (unknown id, empty string, wrong type)
 * -> `MODEL_NOT_ALLOWED`. There is no fallback to another model.
 */
export function resolveModelId(modelId?: unknown): { modelId: ModelId; provider: ProviderName } {
  if (modelId === undefined) return { modelId: DEFAULT_MODEL_ID, provider: MODEL_ALLOW_LIST[DEFAULT_MODEL_ID] };
  if (isModelId(modelId)) return { modelId, provider: MODEL_ALLOW_LIST[modelId] };
  throw modelNotAllowed(modelId, MODEL_IDS);
}

/** `MODEL_NOT_ALLOWED` naming the value (shortened, never echoed whole) and the allowed ids. */
export function modelNotAllowed(modelId: unknown, allowed: readonly string[]): ChatwireError {
  return new ChatwireError('MODEL_NOT_ALLOWED', `modelId ${describe(modelId)} is not allowed; allowed: ${allowed.join(', ')}`, {
    details: { field: 'modelId', allowed: [...allowed] },
  });
}

function describe(value: unknown): string {
  if (typeof value === 'string') return `'${value.length > 80 ? `${value.slice(0, 80)}...` : value}'`;
  if (value === null) return '(null)';
  return `(${typeof value})`;
}
