import { APICallError } from '@ai-sdk/provider';
import { isChatwireError } from '@chatwire/storage';
import { streamText, tool, stepCountIs } from 'ai';
import { http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createProvider } from './create-provider.js';
import type { ProviderName, ProvidersOptions } from './model-types.js';
import { fakeProviderGateway, GATEWAY } from './testing/fake-provider-gateway.js';
import { responsesText, responsesToolCall } from './testing/provider-wire-fixtures.js';

const CALLER_JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c2VyLTEifQ.caller-secret-signature';
const OWNER_JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJvd25lciJ9.owner-secret-signature';
const KEY = { provider_a: 'sk-ant-direct-key-aaa', provider_b: 'sk-direct-key-bbb', provider_c: 'direct-key-ccc' };

let failWith: number | undefined;
const gateway = fakeProviderGateway(() =>
  failWith === undefined
    ? undefined
    : new Response(JSON.stringify({ type: 'error', error: { type: 'authentication_error', message: 'invalid bearer token' } }), {
        status: failWith,
        headers: { 'content-type': 'application/json' },
      }),
);
const server = setupServer(...gateway.handlers);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  gateway.requests.length = 0;
  failWith = undefined;
  server.resetHandlers();
});
afterAll(() => server.close());

const PROVIDERS: ProviderName[] = ['provider_a', 'provider_b', 'provider_c'];
const MODEL: Record<ProviderName, string> = { provider_a: 'alpha-haiku-4-5', provider_b: 'beta-5.4', provider_c: 'gamma-oss-120b' };

const direct: ProvidersOptions = {
  provider_a: { baseURL: GATEWAY.provider_a, apiKey: KEY.provider_a },
  provider_b: { baseURL: GATEWAY.provider_b, apiKey: KEY.provider_b },
  provider_c: { baseURL: GATEWAY.provider_c, apiKey: KEY.provider_c },
};

async function run(providers: ProvidersOptions, provider: ProviderName, authToken?: string) {
  const options = { appOwnerToken: OWNER_JWT, ...(authToken === undefined ? {} : { authToken }) };
  const model = createProvider(providers[provider], provider, options)(MODEL[provider]);
  const errors: unknown[] = [];
  const result = streamText({ model, prompt: 'hi', maxRetries: 0, onError: ({ error }) => void errors.push(error) });
  let text = '';
  for await (const delta of result.textStream) text += delta;
  return { text, errors };
}

function caught(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('createProvider, direct mode (apiKey)', () => {
  it.each(PROVIDERS)('%s uses the key the provider\'s normal way and never forwards the caller token', async (provider) => {
    const { text, errors } = await run(direct, provider, CALLER_JWT);
    expect(errors).toEqual([]);
    expect(text).not.toBe('');
    const headers = gateway.requests[0]!.headers;
    if (provider === 'provider_a') {
      expect(headers.get('x-api-key')).toBe(KEY.provider_a);
      expect(headers.get('authorization')).toBeNull();
    } else {
      expect(headers.get('authorization')).toBe(`Bearer ${KEY[provider]}`);
      expect(headers.get('x-api-key')).toBeNull();
    }
    expect(JSON.stringify([...headers])).not.toContain(CALLER_JWT);
    expect(JSON.stringify([...headers])).not.toContain(OWNER_JWT);
  });
});

describe('createProvider, errors', () => {
  it.each(PROVIDERS)('%s: an error status surfaces as an error that does not contain the token', async (provider) => {
    failWith = 401;
    const { text, errors } = await run({ [provider]: { baseURL: GATEWAY[provider] } }, provider, CALLER_JWT);
    expect(text).toBe('');
    expect(errors).toHaveLength(1);
    const error = errors[0];
    expect(APICallError.isInstance(error)).toBe(true);
    expect((error as APICallError).statusCode).toBe(401);
    expect(String((error as Error).message)).not.toContain(CALLER_JWT);
    expect(JSON.stringify(error)).not.toContain(CALLER_JWT);
    expect(JSON.stringify(error)).not.toContain('caller-secret');
  });

  it('a provider with neither base URL nor key names the options and env vars to set', () => {
    const error = caught(() => createProvider({}, 'provider_b', { authToken: CALLER_JWT, appOwnerToken: OWNER_JWT }));
    expect(isChatwireError(error, 'PROVIDER_NOT_CONFIGURED')).toBe(true);
    expect((error as Error).message).toBe(
      'provider_b is not configured: set providers.provider_b.baseURL (gateway) or providers.provider_b.apiKey (direct); in the environment PROVIDER_B_BASE_URL or PROVIDER_B_API_KEY',
    );
  });

  it('gateway mode without any token names appOwnerToken and APP_OWNER_JWT', () => {
    const error = caught(() => createProvider({ baseURL: GATEWAY.provider_a }, 'provider_a', { appOwnerToken: '  ' }));
    expect(isChatwireError(error, 'PROVIDER_NOT_CONFIGURED')).toBe(true);
    expect((error as Error).message).toContain('APP_OWNER_JWT');
  });

  it('a blank caller token is refused instead of silently billing the app owner', () => {
    const error = caught(() =>
      createProvider({ baseURL: GATEWAY.provider_a }, 'provider_a', { authToken: '', appOwnerToken: OWNER_JWT }),
    );
    expect(isChatwireError(error, 'UNAUTHORIZED')).toBe(true);
    expect((error as Error).message).not.toContain(OWNER_JWT);
  });

  it('provider_c has no vendor default: a key without a base URL names PROVIDER_C_BASE_URL', () => {
    const error = caught(() => createProvider({ apiKey: KEY.provider_c }, 'provider_c'));
    expect(isChatwireError(error, 'PROVIDER_NOT_CONFIGURED')).toBe(true);
    expect((error as Error).message).toContain('PROVIDER_C_BASE_URL');
    expect((error as Error).message).not.toContain(KEY.provider_c);
  });

  it('a base URL that is not http(s) is refused without echoing it', () => {
    const error = caught(() => createProvider({ baseURL: 'ftp://user:pw@host/v1' }, 'provider_b', { authToken: CALLER_JWT }));
    expect(isChatwireError(error, 'PROVIDER_NOT_CONFIGURED')).toBe(true);
    expect((error as Error).message).not.toContain('pw@');
  });
});

describe('createProvider, provider_a request body', () => {
  it('sends max_tokens 4096 by default and the call\'s own maxOutputTokens when given', async () => {
    const model = createProvider({ baseURL: GATEWAY.provider_a }, 'provider_a', { authToken: CALLER_JWT })('alpha-opus-4-7');
    await streamText({ model, prompt: 'hi', maxRetries: 0 }).consumeStream();
    await streamText({ model, prompt: 'hi', maxRetries: 0, maxOutputTokens: 321 }).consumeStream();
    expect(gateway.requests.map((r) => r.body['max_tokens'])).toEqual([4096, 321]);
  });
});

describe('createProvider, provider_b Responses history', () => {
  it('a tool loop sends store: false and the full history (no item_reference) on the second step', async () => {
    let call = 0;
    server.use(
      http.post(`${GATEWAY.provider_b}responses`, async ({ request }) => {
        gateway.requests.push({ url: new URL(request.url), headers: request.headers, body: (await request.json()) as Record<string, unknown> });
        call += 1;
        const usage = { input: 10, output: 5, cached: 0, reasoning: 0 };
        return call === 1
          ? responsesToolCall('beta-5.4', { callId: 'call_1', name: 'lookup', arguments: '{"q":"notes"}' }, usage)
          : responsesText('beta-5.4', ['Found', ' 2.'], usage);
      }),
    );
    const model = createProvider({ baseURL: GATEWAY.provider_b }, 'provider_b', { authToken: CALLER_JWT })('beta-5.4');
    const result = streamText({
      model,
      prompt: 'find notes',
      maxRetries: 0,
      stopWhen: stepCountIs(3),
      providerOptions: { openai: { store: true } },
      tools: { lookup: tool({ inputSchema: z.object({ q: z.string() }), execute: async ({ q }) => ({ count: 2, q }) }) },
    });
    expect(await result.text).toBe('Found 2.');
    expect(gateway.requests).toHaveLength(2);
    expect(gateway.requests.map((r) => r.body['store'])).toEqual([false, false]);
    const input = gateway.requests[1]!.body['input'] as Array<Record<string, unknown>>;
    expect(input.map((item) => item['type'] ?? item['role'])).toEqual(['user', 'function_call', 'function_call_output']);
    expect(input[1]).toMatchObject({ call_id: 'call_1', name: 'lookup', arguments: '{"q":"notes"}' });
    expect(JSON.stringify(input)).not.toContain('item_reference');
  });
});
