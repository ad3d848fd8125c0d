import type { LanguageModelV2 } from '@ai-sdk/provider';
import { KNOWN_SPECIFICATION_VERSIONS, type AppLanguageModel } from '../model-specs/app-language-model.js';
import { asLanguageModelV2 } from '../model-specs/as-language-model-v2.js';
import { DEFAULT_MODEL_ID, MODEL_ALLOW_LIST, MODEL_IDS, MODEL_LABELS } from './model-allow-list.js';
import type { ModelEntry, ProviderName } from './model-types.js';
import { configError } from './parse-model-map.js';
import { PROVIDER_ENV_PREFIX } from './resolve-provider-connection.js';

/** One allow-listed model: an app's own instance, or a model one of the three providers serves. */
export type ServedModel =
  | { kind: 'instance'; id: string; label: string; provider: string; model: LanguageModelV2 }
  | { kind: 'provider'; id: string; label: string; provider: ProviderName; vendorId: string };

export interface ServedModels {
  /** In the order given (built-in: the allow-list's table order). */
  byId: Map<string, ServedModel>;
  defaultModelId: string;
}

/** Model ids: what a request names and a row stores; no blanks, no control characters, at most 128 characters. */
const MODEL_ID = /^[A-Za-z0-9][A-Za-z0-9._:/@+-]{0,127}$/;

/**
 * The allow-list of a registry. Without `models` it is the seven built-in ids, each served by its provider
 * under its own id. With `models` it is exactly those ids. `modelMap` then sends a vendor id instead of a
 * provider-served model's chatwire id. Every problem is a CONFIGURATION error naming it, raised at start-up.
 */
export function buildServedModels(input: {
  models?: Record<string, ModelEntry> | undefined;
  modelMap?: Record<string, string> | undefined;
  defaultModelId?: string | undefined;
}): ServedModels {
  const byId = input.models === undefined ? builtInModels() : appModels(input.models);
  if (input.modelMap !== undefined) applyModelMap(byId, input.modelMap);
  const defaultModelId = input.defaultModelId ?? (input.models === undefined ? DEFAULT_MODEL_ID : byId.keys().next().value!);
  if (!byId.has(defaultModelId)) {
    throw configError('defaultModelId', `'${String(defaultModelId)}' is not one of the models: ${[...byId.keys()].join(', ')}`);
  }
  return { byId, defaultModelId };
}

function builtInModels(): Map<string, ServedModel> {
  return new Map(
    MODEL_IDS.map((id) => [id, { kind: 'provider', id, label: MODEL_LABELS[id], provider: MODEL_ALLOW_LIST[id], vendorId: id }]),
  );
}

function appModels(models: Record<string, ModelEntry>): Map<string, ServedModel> {
  if (typeof models !== 'object' || models === null || Array.isArray(models)) {
    throw configError('models', 'must be an object keyed by model id');
  }
  const byId = new Map<string, ServedModel>();
  const lowerCase = new Map<string, string>();
  for (const [id, entry] of Object.entries(models)) {
    if (!MODEL_ID.test(id)) {
      throw configError('models', `'${id.slice(0, 80)}' is not a valid model id (letters, digits and . _ : / @ + -, starting with a letter or digit, at most 128 characters)`);
    }
    const clash = lowerCase.get(id.toLowerCase());
    if (clash !== undefined) throw configError('models', `'${id}' clashes with '${clash}' (ids differing only in case)`);
    lowerCase.set(id.toLowerCase(), id);
    byId.set(id, servedModel(id, entry));
  }
  if (byId.size === 0) throw configError('models', 'is empty: give at least one model, or leave it out for the built-in list');
  return byId;
}

function servedModel(id: string, entry: ModelEntry): ServedModel {
  if (typeof entry !== 'object' || entry === null) throw configError(`models['${id}']`, 'must be an object');
  const label = entry.label ?? (Object.hasOwn(MODEL_LABELS, id) ? MODEL_LABELS[id as keyof typeof MODEL_LABELS] : id);
  if (typeof label !== 'string' || label.trim() === '') throw configError(`models['${id}'].label`, 'must be a non-empty string');
  if ('model' in entry && entry.model !== undefined) {
    const model = checkInstance(id, entry.model);
    const provider = entry.provider ?? model.provider.split('.')[0] ?? model.provider;
    if (typeof provider !== 'string' || provider.trim() === '') throw configError(`models['${id}'].provider`, 'must be a non-empty string');
    return { kind: 'instance', id, label, provider, model };
  }
  const { provider, vendorId = id } = entry as { provider?: unknown; vendorId?: unknown };
  if (typeof provider !== 'string' || !Object.hasOwn(PROVIDER_ENV_PREFIX, provider)) {
    throw configError(`models['${id}']`, `needs \`model\` (an AI SDK model instance) or \`provider\` (one of ${Object.keys(PROVIDER_ENV_PREFIX).join(', ')})`);
  }
  if (typeof vendorId !== 'string' || vendorId.trim() === '' || /\s/.test(vendorId)) {
    throw configError(`models['${id}'].vendorId`, 'must be a non-empty id without blanks');
  }
  return { kind: 'provider', id, label, provider: provider as ProviderName, vendorId };
}

function checkInstance(id: string, model: unknown): LanguageModelV2 {
  const where = `models['${id}'].model`;
  if (typeof model === 'string') throw configError(where, 'must be a model instance (for example `openai("gpt-4o")`), not a string');
  return checkAppModel(where, model);
}

/**
 * An app's model instance, checked at start-up and made the `v2` model chatwire runs: its specification must
 * be one chatwire knows (`v2`, `v3` or `v4`: the provider packages of AI SDK 5, 6 and 7).
 */
export function checkAppModel(where: string, model: unknown): LanguageModelV2 {
  if (typeof model !== 'object' || model === null) throw configError(where, 'must be an AI SDK model instance');
  const candidate = model as Partial<AppLanguageModel> & { specificationVersion?: unknown };
  const spec = candidate.specificationVersion;
  const name = typeof candidate.modelId === 'string' ? `'${candidate.modelId.slice(0, 80)}'` : 'the model';
  if (typeof spec !== 'string' || !(KNOWN_SPECIFICATION_VERSIONS as readonly string[]).includes(spec)) {
    throw configError(
      where,
      `${name} implements specificationVersion '${String(spec).slice(0, 20)}', which chatwire does not know; ` +
        `it runs ${KNOWN_SPECIFICATION_VERSIONS.map((v) => `'${v}'`).join(', ')} models (the provider packages of AI SDK 5, 6 and 7)`,
    );
  }
  if (typeof candidate.doStream !== 'function' || typeof candidate.provider !== 'string') {
    throw configError(where, 'is not a language model (no doStream or provider)');
  }
  return asLanguageModelV2(model as AppLanguageModel);
}

function applyModelMap(byId: Map<string, ServedModel>, map: Record<string, string>): void {
  const source = 'modelMap (CHATWIRE_MODEL_MAP)';
  if (typeof map !== 'object' || map === null || Array.isArray(map)) throw configError(source, 'must be an object of chatwire id -> vendor id');
  const served = [...byId.values()].filter((m) => m.kind === 'provider').map((m) => m.id);
  for (const [id, vendorId] of Object.entries(map)) {
    const model = byId.get(id);
    if (model === undefined || model.kind !== 'provider') {
      throw configError(source, `'${id}' is not a model served by a provider; known: ${served.join(', ') || '(none)'}`);
    }
    if (typeof vendorId !== 'string' || vendorId.trim() === '' || /\s/.test(vendorId)) {
      throw configError(source, `the vendor id of '${id}' must be a non-empty id without blanks`);
    }
    byId.set(id, { ...model, vendorId: vendorId.trim() });
  }
}
