import { describe, expect, it } from 'vitest';
import { modelOptionsFromEnv } from './model-options-from-env.js';

describe('modelOptionsFromEnv', () => {
  it('maps the provider variables, APP_OWNER_JWT and CHATWIRE_MODEL_MAP onto registry options', () => {
    expect(
      modelOptionsFromEnv({
        PROVIDER_A_BASE_URL: 'https://gw.example/anthropic/v1',
        PROVIDER_B_API_KEY: 'sk-b',
        PROVIDER_C_BASE_URL: 'http://localhost:8000/v1',
        PROVIDER_C_API_KEY: 'key-c',
        APP_OWNER_JWT: 'owner.jwt.value',
        CHATWIRE_MODEL_MAP: 'alpha-sonnet-4-6=claude-sonnet-4-5',
        UNRELATED: 'x',
      }),
    ).toEqual({
      providers: {
        provider_a: { baseURL: 'https://gw.example/anthropic/v1' },
        provider_b: { apiKey: 'sk-b' },
        provider_c: { baseURL: 'http://localhost:8000/v1', apiKey: 'key-c' },
      },
      appOwnerToken: 'owner.jwt.value',
      modelMap: { 'alpha-sonnet-4-6': 'claude-sonnet-4-5' },
    });
  });

  it('leaves out unset and blank variables', () => {
    expect(modelOptionsFromEnv({ PROVIDER_A_BASE_URL: '  ', APP_OWNER_JWT: '', CHATWIRE_MODEL_MAP: ' ' })).toEqual({ providers: {} });
  });

  it('CHATWIRE_PROVIDER_FAST_PATH: 0/false turn the fast path off, 1/true on, anything else is a configuration error', () => {
    expect(modelOptionsFromEnv({ CHATWIRE_PROVIDER_FAST_PATH: '0' })).toEqual({ providers: {}, fastPath: false });
    expect(modelOptionsFromEnv({ CHATWIRE_PROVIDER_FAST_PATH: 'FALSE' })).toEqual({ providers: {}, fastPath: false });
    expect(modelOptionsFromEnv({ CHATWIRE_PROVIDER_FAST_PATH: '1' })).toEqual({ providers: {}, fastPath: true });
    expect(() => modelOptionsFromEnv({ CHATWIRE_PROVIDER_FAST_PATH: 'off' })).toThrow(/CHATWIRE_PROVIDER_FAST_PATH/);
  });
});
