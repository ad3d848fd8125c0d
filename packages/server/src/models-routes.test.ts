import { createModelRegistry, type ModelRegistry } from '@chatwire/core';
import { fakeProviderGateway, GATEWAY } from '@chatwire/core/testing';
import { createRecordStore, isChatwireError } from '@chatwire/storage';
import { createMemoryDriver } from '@chatwire/storage/memory';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createChatHandler } from './create-chat-handler.js';
import { fromEnv } from './from-env.js';
import { readSse, SECRET, signToken } from './test-support/chat-fixture.js';
import { scriptedModel, textStep, toolStep } from './test-support/scripted-model.js';

const gateway = fakeProviderGateway();
const server = setupServer(...gateway.handlers);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  gateway.requests.length = 0;
});
afterAll(() => server.close());

const ENV = {
  CHATWIRE_JWT_SECRET: SECRET,
  PROVIDER_A_BASE_URL: GATEWAY.provider_a,
  PROVIDER_B_BASE_URL: GATEWAY.provider_b,
  PROVIDER_C_BASE_URL: GATEWAY.provider_c,
  APP_OWNER_JWT: 'app-owner-jwt',
  CHATWIRE_MODEL_MAP: 'alpha-sonnet-4-6=claude-sonnet-4-5, beta-5.4=gpt-5.4,gamma-oss-120b=openai/gpt-oss-120b',
};

function mount(models: ModelRegistry) {
  const store = createRecordStore({ driver: createMemoryDriver() });
  const handler = createChatHandler({ store, models, auth: { secret: SECRET }, summarizerModelId: false, maxRetries: 0 });
  const send = async (method: string, path: string, body?: unknown) =>
    handler(
      new Request(`http://localhost/api/ai${path}`, {
        method,
        headers: { authorization: `Bearer ${await signToken('alice')}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
    );
  const newChat = async () => ((await (await send('POST', '/chats', {})).json()) as { chat: { recordId: string } }).chat.recordId;
  const turnRows = async () => (await store.asServer().query('ai-turns')).records.map((r) => r.data);
  return { store, send, newChat, turnRows };
}

describe('CHATWIRE_MODEL_MAP through the handler', () => {
  it.each([
    ['alpha-sonnet-4-6', 'claude-sonnet-4-5', 'provider_a'],
    ['beta-5.4', 'gpt-5.4', 'provider_b'],
    ['gamma-oss-120b', 'openai/gpt-oss-120b', 'provider_c'],
  ])('%s: the provider gets %s; the stream and the stored rows keep chatwire’s id', async (modelId, vendorId, provider) => {
    const { send, newChat, turnRows, store } = mount(fromEnv(ENV).models);
    const res = await send('POST', '/chat', { chatId: await newChat(), userMessageId: 'u1', content: 'Hello?', modelId });
    const { chunks, done } = await readSse(res);
    expect(done).toBe(true);
    expect(gateway.requests.map((r) => r.body.model)).toEqual([vendorId]);
    expect(JSON.stringify(chunks)).not.toContain(vendorId);
    expect((await turnRows()).map((t) => [t.modelId, t.provider])).toEqual([[modelId, provider]]);
    expect(JSON.stringify((await store.asServer().query('ai-messages')).records)).not.toContain(vendorId);
  });

  it('an unmapped id still goes out as itself; a vendor id is not a model a request may name', async () => {
    const { send, newChat } = mount(fromEnv(ENV).models);
    const chatId = await newChat();
    await readSse(await send('POST', '/chat', { chatId, userMessageId: 'u1', content: 'Hi', modelId: 'beta-5.4-mini' }));
    expect(gateway.requests.map((r) => r.body.model)).toEqual(['beta-5.4-mini']);
    const res = await send('POST', '/chat', { chatId, userMessageId: 'u2', content: 'Hi', modelId: 'claude-sonnet-4-5' });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('MODEL_NOT_ALLOWED');
  });

  it('GET /models lists the seven built-in ids with provider and label', async () => {
    const { send } = mount(fromEnv(ENV).models);
    const body = (await (await send('GET', '/models')).json()) as { models: Array<{ id: string; provider: string; label: string }> };
    expect(body.models).toEqual([
      { id: 'alpha-opus-4-7', provider: 'provider_a', label: 'Alpha Opus 4.7', inputs: ['text', 'image', 'pdf', 'text-file'] },
      { id: 'alpha-sonnet-4-6', provider: 'provider_a', label: 'Alpha Sonnet 4.6', inputs: ['text', 'image', 'pdf', 'text-file'] },
      { id: 'alpha-haiku-4-5', provider: 'provider_a', label: 'Alpha Haiku 4.5', inputs: ['text', 'image', 'pdf', 'text-file'] },
      { id: 'beta-5.4', provider: 'provider_b', label: 'Beta 5.4', inputs: ['text', 'image', 'pdf', 'text-file'] },
      { id: 'beta-5.4-mini', provider: 'provider_b', label: 'Beta 5.4 Mini', inputs: ['text', 'image', 'pdf', 'text-file'] },
      { id: 'beta-5.4-nano', provider: 'provider_b', label: 'Beta 5.4 Nano', inputs: ['text', 'image', 'pdf', 'text-file'] },
      { id: 'gamma-oss-120b', provider: 'provider_c', label: 'Gamma OSS 120B', inputs: ['text', 'text-file'] },
    ]);
    // Only the configured providers' models are offered.
    const onlyC = mount(fromEnv({ CHATWIRE_JWT_SECRET: SECRET, PROVIDER_C_BASE_URL: GATEWAY.provider_c }).models);
    const listed = (await (await onlyC.send('GET', '/models')).json()) as { models: Array<{ id: string }> };
    expect(listed.models.map((m) => m.id)).toEqual(['gamma-oss-120b']);
  });
});

describe('app-provided model instances through the handler', () => {
  function appModels() {
    const gemini = scriptedModel([toolStep('user_current', {}), textStep('You are alice.'), textStep('Still alice.')]);
    // A real @ai-sdk/openai-compatible chat model (a local server, here msw), as the app configured it.
    const local = createModelRegistry({
      providers: { provider_c: { baseURL: GATEWAY.provider_c } },
      appOwnerToken: 'local-key',
      modelMap: { 'gamma-oss-120b': 'llama-3.1-8b-instruct' },
    }).languageModel('gamma-oss-120b');
    const models = createModelRegistry({
      models: {
        'my-gemini': { model: gemini.model, label: 'Gemini 2.5', provider: 'google' },
        'local-llm': { model: local, label: 'Local Llama' },
      },
    });
    return { gemini, local, models };
  }

  it('GET /models lists exactly the app’s models; other ids are MODEL_NOT_ALLOWED', async () => {
    const { models } = appModels();
    const { send, newChat } = mount(models);
    const body = (await (await send('GET', '/models')).json()) as { models: unknown[] };
    expect(body.models).toEqual([
      { id: 'my-gemini', provider: 'google', label: 'Gemini 2.5', inputs: ['text', 'text-file'] },
      { id: 'local-llm', provider: 'provider_c', label: 'Local Llama', inputs: ['text', 'text-file'] },
    ]);
    const res = await send('POST', '/chat', { chatId: await newChat(), userMessageId: 'u1', content: 'Hi', modelId: 'alpha-sonnet-4-6' });
    expect(res.status).toBe(400);
    const error = ((await res.json()) as { error: { code: string; message: string } }).error;
    expect(error).toMatchObject({ code: 'MODEL_NOT_ALLOWED' });
    expect(error.message).toContain('allowed: my-gemini, local-llm');
  });

  it('turns run on the app’s instances (default: the first), tools included, and switch between them', async () => {
    const { gemini, models } = appModels();
    const { send, newChat, turnRows } = mount(models);
    const chatId = await newChat();
    const first = await readSse(await send('POST', '/chat', { chatId, userMessageId: 'u1', content: 'Who am I?' }));
    expect(first.chunks.find((c) => c.type === 'tool-output-available')).toBeDefined();
    expect(first.chunks.at(-1)).toEqual({ type: 'finish', finishReason: 'stop' });
    expect(gemini.calls).toHaveLength(2);
    expect(gateway.requests).toHaveLength(0);

    const second = await readSse(await send('POST', '/chat', { chatId, userMessageId: 'u2', content: 'Sure?', modelId: 'local-llm' }));
    expect(second.chunks.at(-1)).toEqual({ type: 'finish', finishReason: 'stop' });
    expect(gateway.requests).toHaveLength(1);
    const sent = gateway.requests[0]!;
    expect(sent.url.pathname).toBe('/compat/v1/chat/completions');
    expect(sent.body.model).toBe('llama-3.1-8b-instruct');
    // The app's key, not the caller's token: an app instance carries its own credentials.
    expect(sent.headers.get('authorization')).toBe('Bearer local-key');
    const messages = sent.body.messages as Array<{ role: string; tool_calls?: Array<{ id: string }>; tool_call_id?: string }>;
    expect(messages.find((m) => m.tool_calls)?.tool_calls?.map((c) => c.id)).toEqual(['call-1']);
    expect(messages.filter((m) => m.role === 'tool').map((m) => m.tool_call_id)).toEqual(['call-1']);

    expect((await turnRows()).map((t) => [t.modelId, t.provider])).toEqual([
      ['my-gemini', 'google'],
      ['local-llm', 'provider_c'],
    ]);
  });
});

describe('start-up errors', () => {
  it.each([
    ['alpha-sonnet-4-6', "has no '='"],
    ['alpha-sonnet-4-6=', 'has an empty vendor id'],
    ['alpha-sonnet-5=claude-sonnet-4-5', "'alpha-sonnet-5' is not a model served by a provider"],
    ['beta-5.4=gpt-5.4,beta-5.4=gpt-5.5', "'beta-5.4' is mapped twice"],
  ])('CHATWIRE_MODEL_MAP=%s is a CONFIGURATION error naming the problem', (map, problem) => {
    let error: unknown;
    try {
      fromEnv({ ...ENV, CHATWIRE_MODEL_MAP: map });
    } catch (e) {
      error = e;
    }
    expect(isChatwireError(error, 'CONFIGURATION')).toBe(true);
    expect((error as Error).message).toContain('CHATWIRE_MODEL_MAP');
    expect((error as Error).message).toContain(problem);
  });

  it('an app model id that clashes, or is invalid, is a CONFIGURATION error at start-up', () => {
    const model = scriptedModel([]).model;
    for (const [models, problem] of [
      [{ 'My-Model': { model }, 'my-model': { model } }, "'my-model' clashes with 'My-Model'"],
      [{ 'bad id': { model } }, "'bad id' is not a valid model id"],
    ] as const) {
      expect(() => fromEnv(ENV, { models })).toThrowError(expect.objectContaining({ code: 'CONFIGURATION', message: expect.stringContaining(problem) }));
    }
  });
});
