import { expect } from 'vitest';
import { signToken } from './sign-token.js';

export type FetchLike = (request: Request) => Promise<Response>;

export interface ServedTurn {
  status: number;
  headers: Headers;
  /** The body as the network delivered it, one entry per read. */
  reads: string[];
  text: string;
}

/**
 * Creates a chat and runs one turn through `fetchLike` (a recipe's handler, or `fetch` to a running server)
 * as a signed-in user, reading the event stream read by read.
 */
export async function serveTurn(fetchLike: FetchLike, baseUrl: string, secret: string): Promise<ServedTurn> {
  const headers = { authorization: `Bearer ${signToken(secret, 'alice')}`, 'content-type': 'application/json' };
  const created = await fetchLike(new Request(`${baseUrl}/api/ai/chats`, { method: 'POST', headers, body: '{"title":"Recipe"}' }));
  if (created.status !== 201) throw new Error(`POST /chats answered ${created.status}: ${await created.text()}`);
  const { chat } = (await created.json()) as { chat: { recordId: string } };
  const response = await fetchLike(
    new Request(`${baseUrl}/api/ai/chat`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ chatId: chat.recordId, userMessageId: crypto.randomUUID(), content: 'Hello there' }),
    }),
  );
  const reads: string[] = [];
  const decoder = new TextDecoder();
  const reader = response.body!.getReader();
  for (let r = await reader.read(); !r.done; r = await reader.read()) reads.push(decoder.decode(r.value, { stream: true }));
  return { status: response.status, headers: response.headers, reads, text: reads.join('') };
}

/** Through a real server: the same turn over HTTP. */
export const overHttp: FetchLike = (request) => fetch(request);

/** A turn answered as SSE, streamed in several reads (not buffered), ending with `[DONE]`. */
export function expectStreamedTurn(turn: ServedTurn): void {
  expect(turn.status).toBe(200);
  expect(turn.headers.get('content-type')).toContain('text/event-stream');
  expect(turn.headers.get('cache-control')).toBe('no-cache, no-transform');
  expect(turn.text).toContain('"type":"text-delta"');
  expect(turn.text.trimEnd().endsWith('data: [DONE]')).toBe(true);
  expect(turn.reads.length).toBeGreaterThan(2);
  expect(turn.reads[0]).not.toContain('"type":"finish"');
}
