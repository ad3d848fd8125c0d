import { ChatwireError } from '@chatwire/storage';
import { createMemoryDriver } from '@chatwire/storage/memory';
import { withFaults, type DriverOperation } from '@chatwire/storage/testing';
import { describe, expect, it } from 'vitest';
import { BASE, chatFixture, readSse, signToken, type ChatFixture } from '../test-support/chat-fixture.js';
import { scriptedModel, textStep } from '../test-support/scripted-model.js';
import { buildOpenApiDocument } from './build-openapi-document.js';
import { FEEDBACK_SHARE_PATHS } from './feedback-share-openapi.js';

/** The feedback and share operations of `GET /openapi.json` list exactly the statuses their routes answer. */

type Operation = { responses: Record<string, unknown> };
const document = buildOpenApiDocument({ basePath: '/api/ai' }) as { paths: Record<string, Record<string, Operation>> };
const OPS: DriverOperation[] = ['insert', 'get', 'query', 'update', 'delete', 'deleteWhere', 'transaction'];

function documented(): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const path of FEEDBACK_SHARE_PATHS) {
    for (const [method, operation] of Object.entries(document.paths[path]!)) {
      if (method !== 'parameters') out[`${method.toUpperCase()} ${path}`] = Object.keys(operation.responses).sort();
    }
  }
  return out;
}

async function stalled(f: ChatFixture, method: string, path: string): Promise<Response> {
  const body = new ReadableStream<Uint8Array>({ start: (c) => c.enqueue(new TextEncoder().encode('{"rating":')) });
  return f.handler(
    new Request(`${BASE}${path}`, {
      method,
      headers: { authorization: `Bearer ${await signToken('alice')}`, 'content-type': 'application/json' },
      body,
      duplex: 'half',
    } as RequestInit),
  );
}

const anonymous = (f: ChatFixture, token: string) => f.handler(new Request(`${BASE}/shared/${token}`));

describe('the statuses of the feedback and share operations', () => {
  it('are exactly the statuses each route answers', async () => {
    const sharing = { sharing: { readsPerMinute: 2 } };
    const f = chatFixture(scriptedModel([textStep('One.')]).model, { handler: { maxBodyBytes: 512, ...sharing } });
    const slow = chatFixture(scriptedModel([]).model, { handler: { bodyTimeoutMs: 20, ...sharing } });
    const faulty = withFaults(createMemoryDriver());
    const down = chatFixture(scriptedModel([]).model, { driver: faulty, handler: sharing });
    const downChat = await down.createChat('alice');
    for (const op of OPS) faulty.failAlways(op, { error: new ChatwireError('UNAVAILABLE', 'The database connection was lost') });

    const produced: Record<string, Set<string>> = {};
    const see = async (operation: string, response: Promise<Response>, expected: number): Promise<Response> => {
      const res = await response;
      expect({ operation, status: res.status }).toEqual({ operation, status: expected });
      (produced[operation] ??= new Set()).add(String(res.status));
      return res;
    };
    const chat = await f.createChat('alice');
    const res = await f.request('POST', '/chat', { body: { chatId: chat, userMessageId: 'u1', content: 'Hi' } });
    await readSse(res);
    const feedback = `/chats/${chat}/messages/${res.headers.get('x-asst-id')}/feedback`;
    const big = { rating: 'up', comment: 'x'.repeat(600) };

    const PUT = 'PUT /chats/{id}/messages/{mid}/feedback';
    await see(PUT, f.request('PUT', feedback, { body: { rating: 'up' } }), 200);
    await see(PUT, f.request('PUT', `/chats/${chat}/messages/u1/feedback`, { body: { rating: 'up' } }), 400);
    await see(PUT, f.request('PUT', feedback, { user: null, body: { rating: 'up' } }), 401);
    await see(PUT, f.request('PUT', feedback, { user: 'bob', body: { rating: 'up' } }), 404);
    await see(PUT, stalled(slow, 'PUT', `/chats/${await slow.createChat('alice')}/messages/m/feedback`), 408);
    await see(PUT, f.request('PUT', feedback, { body: big }), 413);
    await see(PUT, down.request('PUT', `/chats/${downChat}/messages/m/feedback`, { body: { rating: 'up' } }), 503);
    const DEL = 'DELETE /chats/{id}/messages/{mid}/feedback';
    await see(DEL, f.request('DELETE', feedback), 200);
    await see(DEL, f.request('DELETE', feedback), 404);
    await see(DEL, f.request('DELETE', feedback, { user: null }), 401);
    await see(DEL, down.request('DELETE', `/chats/${downChat}/messages/m/feedback`), 503);

    const POST = 'POST /chats/{id}/shares';
    const created = await see(POST, f.request('POST', `/chats/${chat}/shares`, { body: {} }), 201);
    const { share, url } = (await created.json()) as { share: { shareId: string }; url: string };
    await see(POST, f.request('POST', `/chats/${chat}/shares`, { body: { expiresInDays: 0 } }), 400);
    await see(POST, f.request('POST', `/chats/${chat}/shares`, { user: null, body: {} }), 401);
    await see(POST, f.request('POST', '/chats/nope/shares', { body: {} }), 404);
    await see(POST, stalled(slow, 'POST', `/chats/${await slow.createChat('alice')}/shares`), 408);
    await see(POST, f.request('POST', `/chats/${chat}/shares`, { body: big }), 413);
    await see(POST, down.request('POST', `/chats/${downChat}/shares`, { body: {} }), 503);

    const GET = 'GET /shared/{token}';
    const token = url.split('/').pop()!;
    await see(GET, anonymous(f, token), 200);
    await see(GET, anonymous(f, 'A'.repeat(22)), 404);
    await see(GET, anonymous(f, token), 429);
    await see(GET, anonymous(down, token), 503);

    const REVOKE = 'DELETE /shares/{shareId}';
    await see(REVOKE, f.request('DELETE', `/shares/${share.shareId}`, { user: null }), 401);
    await see(REVOKE, f.request('DELETE', `/shares/${share.shareId}`, { user: 'bob' }), 404);
    await see(REVOKE, f.request('DELETE', `/shares/${share.shareId}`), 200);
    await see(REVOKE, down.request('DELETE', `/shares/${share.shareId}`), 503);

    expect(Object.fromEntries(Object.entries(produced).map(([op, statuses]) => [op, [...statuses].sort()]))).toEqual(documented());
    expect([f.errors, down.errors, slow.errors]).toEqual([[], [], []]);
  });
});
