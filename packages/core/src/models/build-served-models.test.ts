import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { createAnthropic as createAnthropicV6 } from 'anthropic-v6';
import { createOpenAICompatible as createOpenAICompatibleV7 } from 'openai-compatible-v7';
import type { LanguageModelV2 } from '@ai-sdk/provider';
import { isChatwireError } from '@chatwire/storage';
import { MockLanguageModelV2 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { buildServedModels } from './build-served-models.js';
import { createModelRegistry } from './create-model-registry.js';
import { MODEL_IDS } from './model-allow-list.js';
import type { ModelEntry } from './model-types.js';

type Input = Parameters<typeof buildServedModels>[0];

function configErrorOf(input: Input): string {
  try {
    buildServedModels(input);
  } catch (error) {
    expect(isChatwireError(error, 'CONFIGURATION')).toBe(true);
    return (error as Error).message;
  }
  throw new Error('expected a CONFIGURATION error');
}

const mock = () => new MockLanguageModelV2();

describe('buildServedModels', () => {
  it('without models: the seven built-in ids with labels, each served by its provider under its own id', () => {
    const { byId, defaultModelId } = buildServedModels({});
    expect([...byId.keys()]).toEqual(MODEL_IDS);
    expect(defaultModelId).toBe('alpha-sonnet-4-6');
    expect(byId.get('alpha-sonnet-4-6')).toEqual({
      kind: 'provider',
      id: 'alpha-sonnet-4-6',
      label: 'Alpha Sonnet 4.6',
      provider: 'provider_a',
      vendorId: 'alpha-sonnet-4-6',
    });
    expect([...byId.values()].map((m) => m.label)).toEqual([
      'Alpha Opus 4.7',
      'Alpha Sonnet 4.6',
      'Alpha Haiku 4.5',
      'Beta 5.4',
      'Beta 5.4 Mini',
      'Beta 5.4 Nano',
      'Gamma OSS 120B',
    ]);
  });

  it('a model map changes only the vendor id', () => {
    const { byId } = buildServedModels({ modelMap: { 'alpha-sonnet-4-6': 'claude-sonnet-4-5', 'beta-5.4': 'gpt-5.4' } });
    expect(byId.get('alpha-sonnet-4-6')).toMatchObject({ id: 'alpha-sonnet-4-6', vendorId: 'claude-sonnet-4-5' });
    expect(byId.get('beta-5.4')).toMatchObject({ id: 'beta-5.4', vendorId: 'gpt-5.4' });
    expect(byId.get('beta-5.4-mini')).toMatchObject({ vendorId: 'beta-5.4-mini' });
  });

  it('with models: exactly those ids, the first is the default, provider from the instance unless given', () => {
    const local = createOpenAICompatible({ name: 'local', baseURL: 'http://localhost:1/v1' }).chatModel('llama');
    const { byId, defaultModelId } = buildServedModels({
      models: {
        'my-gemini': { model: mock(), label: 'Gemini 2.5', provider: 'google' },
        local: { model: local },
        claude: { provider: 'provider_a', vendorId: 'claude-sonnet-4-5', label: 'Claude' },
      },
    });
    expect([...byId.keys()]).toEqual(['my-gemini', 'local', 'claude']);
    expect(defaultModelId).toBe('my-gemini');
    expect(byId.get('my-gemini')).toMatchObject({ kind: 'instance', label: 'Gemini 2.5', provider: 'google' });
    expect(byId.get('local')).toMatchObject({ kind: 'instance', label: 'local', provider: 'local' });
    expect(byId.get('claude')).toMatchObject({ kind: 'provider', provider: 'provider_a', vendorId: 'claude-sonnet-4-5' });
    expect(buildServedModels({ models: { a: { model: mock() }, b: { model: mock() } }, defaultModelId: 'b' }).defaultModelId).toBe('b');
  });

  it('models of AI SDK 6 (v3) and 7 (v4) provider packages are accepted and run as v2 models', () => {
    const entries: Record<string, ModelEntry> = {
      v6: { model: createAnthropicV6({ apiKey: 'k', baseURL: 'http://localhost:1/v1' })('claude-sonnet-4-5') },
      v7: { model: createOpenAICompatibleV7({ name: 'local', baseURL: 'http://localhost:1/v1' }).chatModel('llama') },
    };
    const { byId } = buildServedModels({ models: entries });
    const v6 = byId.get('v6')!;
    const v7 = byId.get('v7')!;
    expect(v6).toMatchObject({ kind: 'instance', provider: 'anthropic' });
    expect(v7).toMatchObject({ kind: 'instance', provider: 'local' });
    for (const served of [v6, v7]) {
      if (served.kind !== 'instance') throw new Error('expected an instance');
      expect(served.model.specificationVersion).toBe('v2');
    }
    expect(v6.kind === 'instance' && v6.model.modelId).toBe('claude-sonnet-4-5');
  });

  it('the fallback model is checked the same way at start-up, naming the option', () => {
    let message = '';
    try {
      createModelRegistry({ fallbackModel: { ...mock(), specificationVersion: 'v1' } as unknown as LanguageModelV2 });
    } catch (error) {
      expect(isChatwireError(error, 'CONFIGURATION')).toBe(true);
      message = (error as Error).message;
    }
    expect(message).toContain("fallbackModel: 'mock-model-id' implements specificationVersion 'v1', which chatwire does not know");
    const v7 = createOpenAICompatibleV7({ name: 'local', baseURL: 'http://localhost:1/v1' }).chatModel('llama');
    expect(createModelRegistry({ fallbackModel: v7 }).languageModel('alpha-sonnet-4-6').specificationVersion).toBe('v2');
  });

  it.each<[string, Input, string]>([
    ['an id clash (ids differing only in case)', { models: { 'My-Model': { model: mock() }, 'my-model': { model: mock() } } }, "models: 'my-model' clashes with 'My-Model'"],
    ['an invalid id', { models: { 'my model': { model: mock() } } }, "models: 'my model' is not a valid model id"],
    ['an empty id', { models: { '': { model: mock() } } }, "models: '' is not a valid model id"],
    ['no models at all', { models: {} }, 'models: is empty'],
    ['a string instead of a model', { models: { x: { model: 'gpt-4o' as unknown as LanguageModelV2 } } }, "models['x'].model: must be a model instance"],
    ['a model of a specification chatwire does not know', { models: { x: { model: { ...mock(), specificationVersion: 'v5' } as unknown as LanguageModelV2 } } }, "models['x'].model: 'mock-model-id' implements specificationVersion 'v5', which chatwire does not know; it runs 'v2', 'v3', 'v4' models"],
    ['a model without a specification', { models: { x: { model: { provider: 'p', modelId: 'm', doStream() {} } as unknown as LanguageModelV2 } } }, "models['x'].model: 'm' implements specificationVersion 'undefined', which chatwire does not know"],
    ['neither model nor provider', { models: { x: { label: 'X' } as unknown as ModelEntry } }, "models['x']: needs `model`"],
    ['an unknown provider', { models: { x: { provider: 'openai' } as unknown as ModelEntry } }, "models['x']: needs `model`"],
    ['an empty label', { models: { x: { model: mock(), label: ' ' } } }, "models['x'].label: must be a non-empty string"],
    ['a default model that is not listed', { defaultModelId: 'gpt-4o' }, "defaultModelId: 'gpt-4o' is not one of the models"],
    ['a map entry for an unknown id', { modelMap: { 'alpha-sonnet-5': 'claude' } }, "modelMap (CHATWIRE_MODEL_MAP): 'alpha-sonnet-5' is not a model served by a provider"],
    ['a map entry for an app instance', { models: { x: { model: mock() } }, modelMap: { x: 'y' } }, "modelMap (CHATWIRE_MODEL_MAP): 'x' is not a model served by a provider; known: (none)"],
    ['an empty vendor id in the map', { modelMap: { 'beta-5.4': '' } }, "modelMap (CHATWIRE_MODEL_MAP): the vendor id of 'beta-5.4' must be a non-empty id"],
  ])('%s is a CONFIGURATION error naming it', (_label, input, start) => {
    expect(configErrorOf(input).startsWith(start)).toBe(true);
  });
});
