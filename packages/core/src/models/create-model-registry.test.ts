import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { isChatwireError } from '@chatwire/storage';
import { streamText, type LanguageModelUsage } from 'ai';
import { MockLanguageModelV2 } from 'ai/test';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createModelRegistry, type ModelRegistryOptions } from './create-model-registry.js';
import { MODEL_ALLOW_LIST, MODEL_IDS, type ModelId } from './model-allow-list.js';
import type { ProviderEnv, ProviderName } from './model-types.js';
import { fakeProviderGateway, GATEWAY, REPLY_WORDS } from './testing/fake-provider-gateway.js';

const gateway = fakeProviderGateway();
const server = setupServer(...gateway.handlers);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  gateway.requests.length = 0;
});
afterAll(() => server.close());

const CALLER_JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c2VyLTEifQ.caller-signature';
const OWNER_JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJvd25lciJ9.owner-signature';

const gatewayOptions: ModelRegistryOptions = {
  providers: {
    provider_a: { baseURL: GATEWAY.provider_a },
    provider_b: { baseURL: GATEWAY.provider_b },
    provider_c: { baseURL: GATEWAY.provider_c },
  },
  appOwnerToken: OWNER_JWT,
};

const EXPECTED_PATH: Record<ProviderName, string> = {
  provider_a: '/anthropic/v1/messages',
  provider_b: '/openai/v1/responses',
  provider_c: '/compat/v1/chat/completions',
};

const EXPECTED_USAGE: Record<ProviderName, LanguageModelUsage> = {
  // Anthropic: input excludes cache reads, no reasoning count.
  provider_a: { inputTokens: 25, outputTokens: 15, totalTokens: 40, cachedInputTokens: 7 },
  provider_b: { inputTokens: 25, outputTokens: 15, totalTokens: 40, reasoningTokens: 3, cachedInputTokens: 7 },
  provider_c: { inputTokens: 25, outputTokens: 15, totalTokens: 40, reasoningTokens: 3, cachedInputTokens: 7 },
};

async function runTurn(options: ModelRegistryOptions, modelId: string, authToken?: string) {
  const registry = createModelRegistry(options);
  const model = registry.languageModel(modelId, authToken === undefined ? {} : { authToken });
  const errors: unknown[] = [];
  const result = streamText({
    model,
    system: 'You are terse.',
    prompt: 'Say hello.',
    maxRetries: 0,
    onError: ({ error }) => {
      errors.push(error);
    },
  });
  let text = '';
  for await (const delta of result.textStream) text += delta;
  return { text, usage: await result.totalUsage, finishReason: await result.finishReason, errors };
}

describe.each(MODEL_IDS.map((id) => [id, MODEL_ALLOW_LIST[id]] as const))('%s (%s) through the gateway', (modelId, provider) => {
  it('sends the caller token as the only credential and decodes the streamed reply', async () => {
    const turn = await runTurn(gatewayOptions, modelId, CALLER_JWT);

    expect(turn.errors).toEqual([]);
    expect(gateway.requests).toHaveLength(1);
    const request = gateway.requests[0]!;
    expect(request.url.pathname).toBe(EXPECTED_PATH[provider]);
    expect(request.headers.get('authorization')).toBe(`Bearer ${CALLER_JWT}`);
    expect(request.headers.get('x-api-key')).toBeNull();
    expect(request.body['model']).toBe(modelId);
    expect(request.body['stream']).toBe(true);
    expect(turn.text).toBe(REPLY_WORDS.join(''));
    expect(turn.finishReason).toBe('stop');
    expect(turn.usage).toEqual(EXPECTED_USAGE[provider]);
  });
});

describe('provider-specific request details', () => {
  it('provider_a keeps anthropic-version and sends no x-api-key even though the SDK always adds one', async () => {
    await runTurn(gatewayOptions, 'alpha-opus-4-7', CALLER_JWT);
    const headers = gateway.requests[0]!.headers;
    expect(headers.get('anthropic-version')).toBe('2023-06-01');
    expect([...headers.keys()].filter((k) => /key|auth|token/i.test(k))).toEqual(['authorization']);
  });

  it('provider_b sends store: false on every Responses request', async () => {
    await runTurn(gatewayOptions, 'beta-5.4-mini', CALLER_JWT);
    expect(gateway.requests[0]!.body['store']).toBe(false);
  });

  it('provider_c asks for usage in the stream', async () => {
    await runTurn(gatewayOptions, 'gamma-oss-120b', CALLER_JWT);
    expect(gateway.requests[0]!.body['stream_options']).toEqual({ include_usage: true });
  });
});

describe('createModelRegistry', () => {
  it('uses APP_OWNER_JWT when the token is omitted', async () => {
    for (const modelId of ['alpha-haiku-4-5', 'beta-5.4', 'gamma-oss-120b'] as const) {
      await runTurn(gatewayOptions, modelId);
    }
    expect(gateway.requests.map((r) => r.headers.get('authorization'))).toEqual([
      `Bearer ${OWNER_JWT}`,
      `Bearer ${OWNER_JWT}`,
      `Bearer ${OWNER_JWT}`,
    ]);
  });

  it('resolves undefined to the default model and rejects anything off the allow-list', () => {
    const registry = createModelRegistry(gatewayOptions);
    expect(registry.resolve()).toEqual({ modelId: 'alpha-sonnet-4-6', provider: 'provider_a' });
    expect(registry.resolve('beta-5.4-nano')).toEqual({ modelId: 'beta-5.4-nano', provider: 'provider_b' });
    for (const bad of ['gpt-4o', '', 42, null, {}, ['alpha-opus-4-7']]) {
      expect(() => registry.resolve(bad)).toThrowError(expect.objectContaining({ code: 'MODEL_NOT_ALLOWED' }));
      expect(() => registry.languageModel(bad as ModelId)).toThrowError(
        expect.objectContaining({ code: 'MODEL_NOT_ALLOWED' }),
      );
    }
  });

  it('rejects a model of an unconfigured provider when another one is configured, even with a fallback', () => {
    const fallback = new MockLanguageModelV2();
    const registry = createModelRegistry({ providers: { provider_a: { baseURL: GATEWAY.provider_a } }, fallbackModel: fallback });
    expect(registry.isConfigured('provider_a')).toBe(true);
    expect(registry.isConfigured('provider_b')).toBe(false);
    expect(registry.anyConfigured()).toBe(true);
    expect(registry.usesFallback()).toBe(false);
    let error: unknown;
    try {
      registry.languageModel('beta-5.4', { authToken: CALLER_JWT });
    } catch (e) {
      error = e;
    }
    expect(isChatwireError(error, 'PROVIDER_NOT_CONFIGURED')).toBe(true);
    expect((error as Error).message).toContain('providers.provider_b.baseURL');
    expect((error as Error).message).toContain('PROVIDER_B_BASE_URL');
    expect((error as Error).message).not.toContain(CALLER_JWT);
    expect(registry.languageModel('alpha-haiku-4-5', { authToken: CALLER_JWT })).not.toBe(fallback);
  });

  it('answers every allow-listed id with the fallback model when no provider is configured', () => {
    const fallback = new MockLanguageModelV2();
    const registry = createModelRegistry({ appOwnerToken: OWNER_JWT, fallbackModel: fallback });
    expect(registry.anyConfigured()).toBe(false);
    expect(registry.usesFallback()).toBe(true);
    for (const modelId of MODEL_IDS) expect(registry.languageModel(modelId)).toBe(fallback);
    expect(registry.list().every((entry) => entry.available)).toBe(true);
    expect(() => registry.languageModel('nope' as ModelId)).toThrowError(
      expect.objectContaining({ code: 'MODEL_NOT_ALLOWED' }),
    );
  });

  it('throws PROVIDER_NOT_CONFIGURED with no provider and no fallback', () => {
    const registry = createModelRegistry();
    expect(() => registry.languageModel('alpha-sonnet-4-6')).toThrowError(
      expect.objectContaining({ code: 'PROVIDER_NOT_CONFIGURED' }),
    );
    expect(registry.summarizerModelId()).toBeNull();
  });

  it('lists availability per model and picks the cheapest configured summarizer', () => {
    const onlyB = createModelRegistry({ providers: { provider_b: { baseURL: GATEWAY.provider_b } } });
    expect(onlyB.list().filter((e) => e.available).map((e) => e.modelId)).toEqual([
      'beta-5.4',
      'beta-5.4-mini',
      'beta-5.4-nano',
    ]);
    expect(onlyB.summarizerModelId()).toBe('beta-5.4-nano');
    expect(createModelRegistry(gatewayOptions).summarizerModelId()).toBe('alpha-haiku-4-5');
    expect(createModelRegistry({ providers: { provider_c: { baseURL: GATEWAY.provider_c } } }).summarizerModelId()).toBe(
      'gamma-oss-120b',
    );
  });

  it('reads its options once, at creation', () => {
    const providers: NonNullable<ModelRegistryOptions['providers']> = {};
    const registry = createModelRegistry({ providers });
    providers.provider_a = { baseURL: GATEWAY.provider_a };
    expect(registry.isConfigured('provider_a')).toBe(false);
  });

  it('still takes the deprecated `env` option, mapped as fromEnv maps it; typed options win', async () => {
    const env: ProviderEnv = { PROVIDER_C_BASE_URL: GATEWAY.provider_c, APP_OWNER_JWT: OWNER_JWT, CHATWIRE_MODEL_MAP: 'gamma-oss-120b=gpt-oss-120b' };
    await runTurn({ env }, 'gamma-oss-120b');
    expect(gateway.requests[0]!.headers.get('authorization')).toBe(`Bearer ${OWNER_JWT}`);
    expect(gateway.requests[0]!.body['model']).toBe('gpt-oss-120b');
    const typed = createModelRegistry({ env, providers: { provider_a: { baseURL: GATEWAY.provider_a } } });
    expect([typed.isConfigured('provider_a'), typed.isConfigured('provider_c')]).toEqual([true, false]);
  });
});

describe('createModelRegistry, vendor ids and app models', () => {
  it.each([
    ['alpha-sonnet-4-6', 'claude-sonnet-4-5'],
    ['beta-5.4', 'gpt-5.4'],
    ['gamma-oss-120b', 'openai/gpt-oss-120b'],
  ])('modelMap sends the vendor id of %s to the provider; resolve keeps chatwire’s id', async (modelId, vendorId) => {
    const options = { ...gatewayOptions, modelMap: { [modelId]: vendorId } };
    await runTurn(options, modelId, CALLER_JWT);
    expect(gateway.requests[0]!.body['model']).toBe(vendorId);
    const registry = createModelRegistry(options);
    expect(registry.resolve(modelId).modelId).toBe(modelId);
    expect(() => registry.resolve(vendorId)).toThrowError(expect.objectContaining({ code: 'MODEL_NOT_ALLOWED' }));
  });

  it('sends each provider’s typed headers', async () => {
    const headers = { 'x-team': 'search' };
    const providers = {
      provider_a: { baseURL: GATEWAY.provider_a, headers },
      provider_b: { baseURL: GATEWAY.provider_b, headers },
      provider_c: { baseURL: GATEWAY.provider_c, headers },
    };
    for (const modelId of ['alpha-haiku-4-5', 'beta-5.4', 'gamma-oss-120b']) await runTurn({ providers, appOwnerToken: OWNER_JWT }, modelId);
    expect(gateway.requests.map((r) => [r.headers.get('x-team'), r.headers.get('authorization')])).toEqual(
      Array.from({ length: 3 }, () => ['search', `Bearer ${OWNER_JWT}`]),
    );
    expect(gateway.requests[0]!.headers.get('x-api-key')).toBeNull();
  });

  it('serves the app’s own model instances: the allow-list is exactly their ids, any caller token is ignored', async () => {
    const gemini = new MockLanguageModelV2({
      provider: 'google.generative-ai',
      modelId: 'gemini-2.5-flash',
      doStream: async () => ({
        stream: new ReadableStream({
          start(controller) {
            controller.enqueue({ type: 'text-start', id: 't' });
            controller.enqueue({ type: 'text-delta', id: 't', delta: 'Hi from Gemini' });
            controller.enqueue({ type: 'text-end', id: 't' });
            controller.enqueue({ type: 'finish', finishReason: 'stop', usage: { inputTokens: 1, outputTokens: 3, totalTokens: 4 } });
            controller.close();
          },
        }),
      }),
    });
    const registry = createModelRegistry({
      ...gatewayOptions,
      models: { 'my-gemini': { model: gemini, label: 'Gemini 2.5' }, claude: { provider: 'provider_a', vendorId: 'claude-sonnet-4-5' } },
    });
    expect(registry.defaultModelId).toBe('my-gemini');
    expect(registry.resolve()).toEqual({ modelId: 'my-gemini', provider: 'google' });
    expect(registry.list()).toEqual([
      { modelId: 'my-gemini', provider: 'google', label: 'Gemini 2.5', available: true },
      { modelId: 'claude', provider: 'provider_a', label: 'claude', available: true },
    ]);
    expect(() => registry.resolve('alpha-sonnet-4-6')).toThrowError(expect.objectContaining({ code: 'MODEL_NOT_ALLOWED', message: expect.stringContaining('allowed: my-gemini, claude') }));
    expect(registry.summarizerModelId()).toBeNull();

    const result = streamText({ model: registry.languageModel('my-gemini', { authToken: CALLER_JWT }), prompt: 'hi', maxRetries: 0 });
    expect(await result.text).toBe('Hi from Gemini');
    expect(gemini.doStreamCalls).toHaveLength(1);
    expect(gateway.requests).toHaveLength(0);

    await runTurn({ ...gatewayOptions, models: { claude: { provider: 'provider_a', vendorId: 'claude-sonnet-4-5' } } }, 'claude', CALLER_JWT);
    expect(gateway.requests[0]!.body['model']).toBe('claude-sonnet-4-5');
  });

  it('a real @ai-sdk/openai-compatible instance of the app keeps its own endpoint, key and model id', async () => {
    const local = createOpenAICompatible({ name: 'local', baseURL: GATEWAY.provider_c, apiKey: 'local-key' }).chatModel('llama-3.1-8b');
    const registry = createModelRegistry({ models: { 'local-llm': { model: local, label: 'Local Llama' } } });
    expect(registry.list()).toEqual([{ modelId: 'local-llm', provider: 'local', label: 'Local Llama', available: true }]);
    const result = streamText({ model: registry.languageModel('local-llm', { authToken: CALLER_JWT }), prompt: 'hi', maxRetries: 0 });
    expect(await result.text).toBe(REPLY_WORDS.join(''));
    const [sent] = gateway.requests;
    expect(sent!.url.pathname).toBe(EXPECTED_PATH.provider_c);
    expect(sent!.body['model']).toBe('llama-3.1-8b');
    expect(sent!.headers.get('authorization')).toBe('Bearer local-key');
  });

  it('app instances need no provider and no fallback; the fallback never replaces them', () => {
    const mine = new MockLanguageModelV2({ provider: 'acme' });
    const registry = createModelRegistry({ models: { mine: { model: mine } }, fallbackModel: new MockLanguageModelV2() });
    expect(registry.usesFallback()).toBe(false);
    expect(registry.list()).toEqual([{ modelId: 'mine', provider: 'acme', label: 'mine', available: true }]);
    expect(registry.languageModel('mine').provider).toBe('acme');
  });

  it('refuses unknown provider names and bad settings at creation (CONFIGURATION)', () => {
    for (const providers of [{ anthropic: { baseURL: 'https://x' } }, { provider_a: { baseURL: 42 } }, { provider_b: { headers: { a: 1 } } }]) {
      expect(() => createModelRegistry({ providers } as unknown as ModelRegistryOptions)).toThrowError(
        expect.objectContaining({ code: 'CONFIGURATION' }),
      );
    }
  });
});
