import { http, type HttpHandler } from 'msw';
import { anthropicText, chatCompletionsText, responsesText, type WireUsage } from './provider-wire-fixtures.js';

export interface CapturedRequest {
  url: URL;
  headers: Headers;
  body: Record<string, unknown>;
}

export const GATEWAY = {
  provider_a: 'http://gateway.test/anthropic/v1',
  provider_b: 'http://gateway.test/openai/v1/',
  provider_c: 'http://gateway.test/compat/v1',
} as const;

export const WIRE_USAGE: WireUsage = { input: 25, output: 15, cached: 7, reasoning: 3 };
export const REPLY_WORDS = ['Hello', ' from', ' the', ' gateway', '.'];

/**
 * msw handlers answering each provider's endpoint under GATEWAY with a streamed reply in its wire format,
 * recording every request. `respond` overrides the answer (e.g. an error status).
 */
export function fakeProviderGateway(respond?: (request: CapturedRequest) => Response | undefined): {
  handlers: HttpHandler[];
  requests: CapturedRequest[];
} {
  const requests: CapturedRequest[] = [];
  const capture = async (request: Request): Promise<CapturedRequest> => {
    const captured = {
      url: new URL(request.url),
      headers: new Headers(request.headers),
      body: (await request.json()) as Record<string, unknown>,
    };
    requests.push(captured);
    return captured;
  };
  const handlers = [
    http.post(`${GATEWAY.provider_a}/messages`, async ({ request }) => {
      const c = await capture(request);
      return respond?.(c) ?? anthropicText(String(c.body['model']), REPLY_WORDS, WIRE_USAGE);
    }),
    http.post(`${GATEWAY.provider_b}responses`, async ({ request }) => {
      const c = await capture(request);
      return respond?.(c) ?? responsesText(String(c.body['model']), REPLY_WORDS, WIRE_USAGE);
    }),
    http.post(`${GATEWAY.provider_c}/chat/completions`, async ({ request }) => {
      const c = await capture(request);
      return respond?.(c) ?? chatCompletionsText(String(c.body['model']), REPLY_WORDS, WIRE_USAGE);
    }),
  ];
  return { handlers, requests };
}
