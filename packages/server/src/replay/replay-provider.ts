import { http, type HttpHandler } from 'msw';
import type { RecordedResponse } from './replay-fixture.js';

/** Where the replayed providers live: each provider package is pointed here and msw answers. */
export const REPLAY_BASE_URLS = {
  provider_a: 'http://replay.test/anthropic/v1',
  provider_b: 'http://replay.test/openai/v1',
  provider_c: 'http://replay.test/compat/v1',
} as const;

/** Bytes per network chunk: small and odd, so SSE events and multi-byte characters arrive split. */
const NETWORK_CHUNK = 61;

export interface ReplayedRequest {
  path: string;
  body: Record<string, unknown>;
}

export interface ReplayProvider {
  handlers: HttpHandler[];
  /** Queues the recorded responses of one run (one per model call) and forgets earlier requests. */
  load(responses: readonly RecordedResponse[]): void;
  /** The request bodies the provider packages sent in this run, in order. */
  readonly requests: ReplayedRequest[];
  /** Recorded responses not yet served. */
  remaining(): number;
}

/** msw handlers that answer each model call with the next recorded response, byte for byte. */
export function replayProvider(): ReplayProvider {
  let queue: RecordedResponse[] = [];
  const requests: ReplayedRequest[] = [];
  const answer = async (request: Request): Promise<Response> => {
    requests.push({ path: new URL(request.url).pathname, body: (await request.json()) as Record<string, unknown> });
    const next = queue.shift();
    if (!next) return new Response(JSON.stringify({ error: { message: 'the recording has no more responses' } }), { status: 418 });
    return new Response(chunked(next.body), { status: next.status, headers: { 'content-type': next.contentType } });
  };
  return {
    handlers: [
      http.post(`${REPLAY_BASE_URLS.provider_a}/messages`, ({ request }) => answer(request)),
      http.post(`${REPLAY_BASE_URLS.provider_b}/responses`, ({ request }) => answer(request)),
      http.post(`${REPLAY_BASE_URLS.provider_c}/chat/completions`, ({ request }) => answer(request)),
    ],
    load(responses) {
      queue = [...responses];
      requests.length = 0;
    },
    requests,
    remaining: () => queue.length,
  };
}

function chunked(body: string): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(body);
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(offset, offset + NETWORK_CHUNK));
      offset += NETWORK_CHUNK;
    },
  });
}
