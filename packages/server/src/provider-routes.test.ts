import { createModelRegistry, MODEL_ALLOW_LIST, type ModelId } from '@chatwire/core';
import { fakeProviderGateway, GATEWAY } from '@chatwire/core/testing';
import { createRecordStore } from '@chatwire/storage';
import { createMemoryDriver } from '@chatwire/storage/memory';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createChatHandler } from './create-chat-handler.js';
import { readSse, SECRET, signToken } from './test-support/chat-fixture.js';

const gateway = fakeProviderGateway();
const server = setupServer(...gateway.handlers);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  gateway.requests.length = 0;
});
afterAll(() => server.close());

const OWNER = 'app-owner-jwt-value';
const env = {
  PROVIDER_A_BASE_URL: GATEWAY.provider_a,
  PROVIDER_B_BASE_URL: GATEWAY.provider_b,
  PROVIDER_C_BASE_URL: GATEWAY.provider_c,
  APP_OWNER_JWT: OWNER,
};

function setup() {
  const store = createRecordStore({ driver: createMemoryDriver() });
  const handler = createChatHandler({
    store,
    models: createModelRegistry({ env }),
    auth: { secret: SECRET },
    summarizerModelId: false,
    maxRetries: 0,
  });
  return { store, handler };
}

async function post(handler: ReturnType<typeof setup>['handler'], token: string, path: string, body: unknown) {
  return handler(
    new Request(`http://localhost/api/ai${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }),
  );
}

const PATHS = { provider_a: '/anthropic/v1/messages', provider_b: '/openai/v1/responses', provider_c: '/compat/v1/chat/completions' };

describe('chat routes against each provider (real provider packages, msw)', () => {
  it.each(Object.entries(MODEL_ALLOW_LIST) as Array<[ModelId, keyof typeof PATHS]>)(
    '%s (%s): the caller’s JWT reaches the provider as the bearer token',
    async (modelId, provider) => {
      const { handler, store } = setup();
      const token = await signToken('alice');
      const created = (await (await post(handler, token, '/chats', {})).json()) as { chat: { recordId: string } };
      const res = await post(handler, token, '/chat', { chatId: created.chat.recordId, userMessageId: 'u1', content: 'Hello?', modelId });
      expect(res.status).toBe(200);
      const { chunks, done } = await readSse(res);
      expect(done).toBe(true);
      const text = chunks.filter((c) => c.type === 'text-delta').map((c) => c.delta).join('');
      expect(text).toBe('Hello from the gateway.');

      expect(gateway.requests).toHaveLength(1);
      const [sent] = gateway.requests;
      expect(sent!.url.pathname).toBe(PATHS[provider]);
      expect(sent!.headers.get('authorization')).toBe(`Bearer ${token}`);
      expect(sent!.headers.get('x-api-key')).toBeNull();
      expect(sent!.body.model).toBe(modelId);

      const [turn] = (await store.asServer().query('ai-turns')).records;
      expect(turn!.data).toMatchObject({ modelId, provider, finishReason: 'stop' });
      expect((turn!.data.usage as { output: number }).output).toBe(15);
    },
  );

  it('without a caller token (server-side calls) the app owner pays: APP_OWNER_JWT reaches the provider', async () => {
    const { handler } = setup();
    const caller = { userId: 'alice' };
    const chat = await handler.service.createChat(caller, {});
    const turn = await handler.service.streamTurn(caller, { chatId: chat.recordId, userMessageId: 'u1', content: 'Hi', modelId: 'beta-5.4-mini' });
    await new Response(turn.stream).text();
    expect(gateway.requests[0]!.headers.get('authorization')).toBe(`Bearer ${OWNER}`);
  });

  it('a provider error status becomes a safe error chunk and nothing is stored', async () => {
    const failing = fakeProviderGateway(() => new Response(JSON.stringify({ error: { message: 'quota exceeded for key sk-123' } }), { status: 429 }));
    server.use(...failing.handlers);
    const { handler, store } = setup();
    const token = await signToken('alice');
    const created = (await (await post(handler, token, '/chats', {})).json()) as { chat: { recordId: string } };
    const { chunks } = await readSse(
      await post(handler, token, '/chat', { chatId: created.chat.recordId, userMessageId: 'u1', content: 'Hello?', modelId: 'gamma-oss-120b' }),
    );
    expect(chunks.map((c) => c.type)).toEqual(['start', 'error']);
    expect(chunks[1]!.errorText).toBe('The model provider returned an error (status 429).');
    expect((await store.asServer().query('ai-messages')).records).toEqual([]);
    server.resetHandlers(...gateway.handlers);
  });
});
