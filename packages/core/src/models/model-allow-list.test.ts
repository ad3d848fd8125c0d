import { isChatwireError } from '@chatwire/storage';
import { describe, expect, it } from 'vitest';
import { DEFAULT_MODEL_ID, MODEL_ALLOW_LIST, MODEL_IDS, resolveModelId } from './model-allow-list.js';

describe('MODEL_ALLOW_LIST', () => {
  it('is exactly the spec 4.6 table', () => {
    expect(MODEL_ALLOW_LIST).toEqual({
      'alpha-opus-4-7': 'provider_a',
      'alpha-sonnet-4-6': 'provider_a',
      'alpha-haiku-4-5': 'provider_a',
      'beta-5.4': 'provider_b',
      'beta-5.4-mini': 'provider_b',
      'beta-5.4-nano': 'provider_b',
      'gamma-oss-120b': 'provider_c',
    });
    expect(DEFAULT_MODEL_ID).toBe('alpha-sonnet-4-6');
  });
});

describe('resolveModelId', () => {
  it('maps undefined to the default and each listed id to its provider', () => {
    expect(resolveModelId()).toEqual({ modelId: 'alpha-sonnet-4-6', provider: 'provider_a' });
    for (const id of MODEL_IDS) expect(resolveModelId(id)).toEqual({ modelId: id, provider: MODEL_ALLOW_LIST[id] });
  });

  it.each([
    ['unknown id', 'gpt-4o', "modelId 'gpt-4o' is not allowed"],
    ['empty string', '', "modelId '' is not allowed"],
    ['case variant', 'Alpha-Opus-4-7', "modelId 'Alpha-Opus-4-7' is not allowed"],
    ['prototype key', 'toString', "modelId 'toString' is not allowed"],
    ['number', 7, 'modelId (number) is not allowed'],
    ['null', null, 'modelId (null) is not allowed'],
    ['object', { modelId: 'beta-5.4' }, 'modelId (object) is not allowed'],
  ])('rejects %s with MODEL_NOT_ALLOWED and lists the allowed ids', (_label, value, start) => {
    let error: unknown;
    try {
      resolveModelId(value);
    } catch (e) {
      error = e;
    }
    expect(isChatwireError(error, 'MODEL_NOT_ALLOWED')).toBe(true);
    expect((error as Error).message).toBe(`${start}; allowed: ${MODEL_IDS.join(', ')}`);
  });
});
