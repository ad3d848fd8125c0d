import type { LanguageModelV2, LanguageModelV2CallOptions } from '@ai-sdk/provider';
import { anthropicFastPathStream, webBodySource, type BodySource } from './anthropic-fast-path-stream.js';
import { fastPathEligible } from './fast-path-eligible.js';
import { nodeBodySource } from './node-body-source.js';
import { NODE_BODY_WANTED } from '../node-http-fetch.js';

export interface AnthropicFastPathOptions {
  /** The package's model (`createAnthropic({ ..., fetch }).messages(id)`) over the given fetch. */
  createModel: (fetch: typeof globalThis.fetch) => LanguageModelV2;
  /** The fetch that makes the real request. */
  fetch: typeof globalThis.fetch;
}

type StreamResult = Awaited<ReturnType<LanguageModelV2['doStream']>>;

/**
 * An @ai-sdk/anthropic@2 Messages model whose stream calls read the SSE answer without the package's
 * web-stream pipeline. The request stays the package's (body, headers, warnings): per call, the package's
 * model is made over a fetch that makes the real request and, when the answer is a 2xx
 * `text/event-stream`, keeps it and hands the package the same status and headers with an empty body. The
 * package's `stream-start` part (its warnings) is read, its stream cancelled, and the kept body parsed by
 * `anthropicFastPathStream` into the parts the package would emit. Any other answer (an error status,
 * another content type) is the package's, as are its errors; `doGenerate` and the calls `fastPathEligible`
 * rejects are the package's as they are.
 */
export function withAnthropicFastPath(options: AnthropicFastPathOptions): LanguageModelV2 {
  const model = options.createModel(options.fetch);
  return {
    specificationVersion: 'v2',
    provider: model.provider,
    modelId: model.modelId,
    get supportedUrls() {
      return model.supportedUrls;
    },
    doGenerate: (callOptions) => model.doGenerate(callOptions),
    doStream: (callOptions) => (fastPathEligible(callOptions) ? fastStream(options, callOptions) : model.doStream(callOptions)),
  };
}

interface Kept {
  response: Response;
  url: string;
}

async function fastStream(options: AnthropicFastPathOptions, callOptions: LanguageModelV2CallOptions): Promise<StreamResult> {
  let kept: Kept | undefined;
  const keeping: typeof globalThis.fetch = async (input, init) => {
    const wanting: RequestInit & { [NODE_BODY_WANTED]?: boolean } = { ...init, [NODE_BODY_WANTED]: true };
    const response = await options.fetch(input, wanting);
    if (!response.ok || response.body === null || !isEventStream(response.headers.get('content-type'))) return response;
    kept = { response, url: typeof input === 'string' ? input : input instanceof URL ? input.href : input.url };
    return new Response('', { status: response.status, statusText: response.statusText, headers: response.headers });
  };
  let result: StreamResult;
  try {
    result = await options.createModel(keeping).doStream(callOptions);
  } catch (error) {
    void kept?.response.body?.cancel().catch(() => {});
    throw error;
  }
  if (kept === undefined) return result;
  const reader = result.stream.getReader();
  const start = await reader.read();
  void reader.cancel().catch(() => {});
  const source: BodySource = nodeBodySource(kept.response) ?? webBodySource(kept.response.body!);
  const streamStart = start.done ? { type: 'stream-start' as const, warnings: [] } : start.value;
  const stream = await anthropicFastPathStream(source, streamStart, {
    url: kept.url,
    statusCode: kept.response.status,
    responseHeaders: result.response?.headers,
    requestBodyValues: result.request?.body,
  });
  return { ...result, stream };
}

function isEventStream(contentType: string | null): boolean {
  return contentType !== null && contentType.trimStart().toLowerCase().startsWith('text/event-stream');
}
