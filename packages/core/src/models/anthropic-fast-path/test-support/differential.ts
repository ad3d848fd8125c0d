import { createAnthropic } from '@ai-sdk/anthropic';
import type { LanguageModelV2, LanguageModelV2CallOptions, LanguageModelV2FunctionTool, LanguageModelV2StreamPart } from '@ai-sdk/provider';
import { withAnthropicFastPath } from '../with-anthropic-fast-path.js';

/** Test support: the same recorded answer through @ai-sdk/anthropic's doStream and through the fast path. */

export interface Recorded {
  status: number;
  contentType: string;
  body: string | Uint8Array;
}

/** What a doStream call gave: its parts, then how it ended (`end`, or the error that ended the stream or the call). */
export interface Outcome {
  parts: LanguageModelV2StreamPart[];
  thrown?: unknown;
  streamError?: unknown;
}

/** A fetch that answers `recorded`, its body cut at the given sizes (cycled), ending with `cut` (an error) if given. */
export function recordedFetch(recorded: Recorded, sizes: readonly number[], cut?: Error): typeof fetch {
  return async () => {
    const bytes = typeof recorded.body === 'string' ? new TextEncoder().encode(recorded.body) : recorded.body;
    let at = 0;
    let k = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (at >= bytes.length) {
          if (cut) controller.error(cut);
          else controller.close();
          return;
        }
        const size = Math.max(1, sizes[k++ % sizes.length] ?? 1);
        controller.enqueue(bytes.slice(at, at + size));
        at += size;
      },
    });
    return new Response(body, { status: recorded.status, headers: { 'content-type': recorded.contentType, 'request-id': 'req_1' } });
  };
}

const BASE = 'http://provider.test/v1';
export const packageModel = (fetch: typeof globalThis.fetch, modelId = 'claude-sonnet-4-5'): LanguageModelV2 =>
  createAnthropic({ baseURL: BASE, apiKey: 'test-key', fetch }).messages(modelId);
export const fastModel = (fetch: typeof globalThis.fetch, modelId = 'claude-sonnet-4-5'): LanguageModelV2 =>
  withAnthropicFastPath({ createModel: (f) => packageModel(f, modelId), fetch });

export const weatherTool: LanguageModelV2FunctionTool = {
  type: 'function',
  name: 'weather',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

export const eligibleCall = (): LanguageModelV2CallOptions => ({
  prompt: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
  maxOutputTokens: 1024,
  tools: [weatherTool],
});

export async function outcome(model: LanguageModelV2, options: LanguageModelV2CallOptions): Promise<Outcome> {
  const parts: LanguageModelV2StreamPart[] = [];
  let result;
  try {
    result = await model.doStream(options);
  } catch (thrown) {
    return { parts, thrown };
  }
  const reader = result.stream.getReader();
  try {
    for (let r = await reader.read(); !r.done; r = await reader.read()) parts.push(r.value);
  } catch (streamError) {
    return { parts, streamError };
  }
  return { parts };
}

/** A part as compared: an `error` part by its type only (the error objects differ by construction), a source without its random id. */
export const comparable = (part: LanguageModelV2StreamPart): unknown =>
  part.type === 'error' ? { type: 'error' } : part.type === 'source' ? { ...part, id: 'generated' } : part;

/** An error as compared: its class name, message for API call errors, status and retryability. */
export function errorShape(error: unknown): unknown {
  if (error === undefined) return undefined;
  const e = error as { name?: string; statusCode?: number; isRetryable?: boolean };
  return { name: e.name, statusCode: e.statusCode, isRetryable: e.isRetryable };
}
