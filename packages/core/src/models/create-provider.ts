import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModelV2, LanguageModelV2Middleware } from '@ai-sdk/provider';
import { ChatwireError } from '@chatwire/storage';
import { wrapLanguageModel } from 'ai';
import { withAnthropicFastPath } from './anthropic-fast-path/with-anthropic-fast-path.js';
import { inlineToolHistory } from './inline-tool-history.js';
import { createProviderFetch } from './node-http-fetch.js';
import { portableToolCallIdsMiddleware } from './portable-tool-call-ids.js';
import { resolveProviderConnection, settingName, type ProviderConnection } from './resolve-provider-connection.js';
import type { ProviderName, ProviderOptions } from './model-types.js';

export interface CreateProviderOptions {
  /**
   * The caller's JWT. Given: it goes to the provider endpoint as `Authorization: Bearer` (the caller pays).
   * Omitted: `appOwnerToken` is used (the app owner pays). Ignored in direct mode (an `apiKey` is set).
   */
  authToken?: string;
  /** The bearer token of gateway calls made without a caller token (APP_OWNER_JWT). */
  appOwnerToken?: string;
  /**
   * Custom fetch (tests, proxies). Default: on Node, a fetch over a `node:http` keep-alive agent that answers
   * as the global fetch does (`createNodeHttpFetch`), used while `globalThis.fetch` is the one it was when
   * chatwire was loaded; once something replaced `globalThis.fetch` (and on other runtimes), the global
   * fetch, looked up at request time.
   */
  fetch?: typeof fetch;
  /**
   * provider_a only: `max_tokens` sent when a call sets no `maxOutputTokens` (the Messages API requires one;
   * the allow-listed ids are unknown to @ai-sdk/anthropic, which would otherwise clamp to 4096 and log a
   * warning on every call). Default 4096.
   */
  defaultMaxOutputTokens?: number;
  /**
   * provider_a only: read the Anthropic Messages stream with chatwire's own SSE parser instead of
   * @ai-sdk/anthropic's web-stream pipeline (same request, same parts; see `withAnthropicFastPath`).
   * Calls that can get blocks it does not parse (provider tools, JSON answers, citations, containers...)
   * go through the package either way. Default true; `CHATWIRE_PROVIDER_FAST_PATH=0` turns it off.
   */
  fastPath?: boolean;
}

/** The default of `CreateProviderOptions.fetch`. */
const defaultFetch = createProviderFetch();

/** Sent when the vendor's own API is called directly with a key and no base URL is configured. */
const VENDOR_BASE_URLS: Partial<Record<ProviderName, string>> = {
  provider_a: 'https://api.anthropic.com/v1',
  provider_b: 'https://api.openai.com/v1',
};

/**
 * The provider factory: `(settings, providerName, { authToken? })` -> a function from the vendor's model id
 * to `LanguageModelV2`. provider_a speaks the Anthropic Messages API (`POST {base}/messages`), provider_b the
 * OpenAI Responses API (`POST {base}/responses`, always `store: false`), provider_c OpenAI-compatible chat
 * completions (`POST {base}/chat/completions`, usage included). Tool call ids of earlier turns, possibly made by another
 * provider, are sent in a form all three accept (see `portableToolCallIds`).
 *
 * Throws `PROVIDER_NOT_CONFIGURED` when the provider has neither base URL nor key, or in gateway mode when
 * there is no token at all. Error messages never contain a token or key.
 */
export function createProvider(
  settings: ProviderOptions | undefined,
  providerName: ProviderName,
  options: CreateProviderOptions = {},
): (modelId: string) => LanguageModelV2 {
  const connection = resolveProviderConnection(settings, providerName, options.authToken, options.appOwnerToken);
  const baseURL = connection.baseURL ?? VENDOR_BASE_URLS[providerName];
  if (baseURL === undefined) {
    throw new ChatwireError(
      'PROVIDER_NOT_CONFIGURED',
      `${providerName} has no default endpoint: set ${settingName(providerName, 'baseURL')}`,
      { details: { provider: providerName } },
    );
  }
  const headers = connection.headers === undefined ? {} : { headers: { ...connection.headers } };
  const baseFetch = options.fetch;
  const fetchNow: typeof fetch = (input, init) => (baseFetch ?? defaultFetch)(input, init);

  switch (providerName) {
    case 'provider_a':
      return createAnthropicModel(connection, baseURL, fetchNow, options.defaultMaxOutputTokens ?? 4096, headers, options.fastPath ?? true);
    case 'provider_b': {
      const provider = createOpenAI({ baseURL, apiKey: connection.credential, fetch: fetchNow, ...headers });
      return (modelId) => wrapLanguageModel({ model: provider.responses(modelId), middleware: [storeOff, portableToolCallIdsMiddleware] });
    }
    case 'provider_c': {
      const provider = createOpenAICompatible({
        name: 'provider_c',
        baseURL,
        apiKey: connection.credential,
        includeUsage: true,
        fetch: fetchNow,
        ...headers,
      });
      return (modelId) => wrapLanguageModel({ model: provider.chatModel(modelId), middleware: portableToolCallIdsMiddleware });
    }
    default:
      throw new ChatwireError('PROVIDER_NOT_CONFIGURED', `unknown provider '${String(providerName)}'`);
  }
}

function createAnthropicModel(
  connection: ProviderConnection,
  baseURL: string,
  fetchNow: typeof fetch,
  defaultMaxOutputTokens: number,
  headers: { headers?: Record<string, string> },
  fastPath: boolean,
): (modelId: string) => LanguageModelV2 {
  const middleware: LanguageModelV2Middleware = {
    middlewareVersion: 'v2',
    transformParams: async ({ params }) => ({
      ...inlineToolHistory(params),
      maxOutputTokens: params.maxOutputTokens ?? defaultMaxOutputTokens,
    }),
  };
  // @ai-sdk/anthropic@2 has no authToken option and always sends x-api-key: in gateway mode, give it a
  // placeholder key and replace the header on the way out, so only `Authorization: Bearer <token>` reaches the gateway.
  const authorization = `Bearer ${connection.credential}`;
  const bearerOnly: typeof fetch = (input, init) => {
    const headers = new Headers(init?.headers);
    headers.delete('x-api-key');
    headers.set('authorization', authorization);
    return fetchNow(input, { ...init, headers });
  };
  const direct = connection.mode === 'direct';
  const apiKey = direct ? connection.credential : 'chatwire-gateway-placeholder';
  const providerFetch = direct ? fetchNow : bearerOnly;
  const messages = (modelId: string, fetch: typeof globalThis.fetch) => createAnthropic({ baseURL, apiKey, fetch, ...headers }).messages(modelId);
  // A configured anthropic-beta header can turn on blocks the fast path does not parse.
  const betaHeader = Object.keys(headers.headers ?? {}).some((name) => name.toLowerCase() === 'anthropic-beta');
  if (!fastPath || betaHeader) {
    const provider = createAnthropic({ baseURL, apiKey, fetch: providerFetch, ...headers });
    return (modelId) => wrapLanguageModel({ model: provider.messages(modelId), middleware: [middleware, portableToolCallIdsMiddleware] });
  }
  return (modelId) =>
    wrapLanguageModel({
      model: withAnthropicFastPath({ createModel: (fetch) => messages(modelId, fetch), fetch: providerFetch }),
      middleware: [middleware, portableToolCallIdsMiddleware],
    });
}

/**
 * Responses API with the default `store: true` sends later steps' history as `item_reference` ids that a
 * gateway (or a store-less account) cannot resolve; with `store: false` each request carries its own history.
 */
const storeOff: LanguageModelV2Middleware = {
  middlewareVersion: 'v2',
  transformParams: async ({ params }) => ({
    ...params,
    providerOptions: {
      ...params.providerOptions,
      openai: { ...params.providerOptions?.['openai'], store: false },
    },
  }),
};
