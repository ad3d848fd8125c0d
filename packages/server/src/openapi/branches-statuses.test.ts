import { ChatwireError } from '@chatwire/storage';
import { createMemoryDriver } from '@chatwire/storage/memory';
import { withFaults } from '@chatwire/storage/testing';
import { describe, expect, it } from 'vitest';
import { BASE, chatFixture, readSse, signToken } from '../test-support/chat-fixture.js';
import { scriptedModel, textStep } from '../test-support/scripted-model.js';
import { buildOpenApiDocument } from './build-openapi-document.js';

/** `POST /chats/{id}/active` of `GET /openapi.json` lists exactly the statuses the route answers. */

type Operation = { responses: Record<string, unknown> };
const document = buildOpenApiDocument({ basePath: '/api/ai' }) as { paths: Record<string, Record<string, Operation>> };

describe('the statuses of POST /chats/{id}/active', () => {
  it('are exactly the documented ones', async () => {
    const scripted = scriptedModel([textStep('One two three four')]);
    const tree = { history: 'tree' as const };
    const f = chatFixture(scripted.model, { handler: { ...tree, maxBodyBytes: 256 } });
    const slow = chatFixture(scriptedModel([]).model, { handler: { ...tree, bodyTimeoutMs: 20 } });
    const faulty = withFaults(createMemoryDriver());
    const down = chatFixture(scriptedModel([]).model, { driver: faulty, handler: tree });
    const seen = new Set<number>();
    const see = async (res: Promise<Response>, status: number) => {
      const answer = await res;
      expect(answer.status).toBe(status);
      await answer.body?.cancel();
      seen.add(status);
    };

    const chatId = await f.createChat('alice');
    await readSse(await f.request('POST', '/chat', { body: { chatId, userMessageId: 'u1', content: 'hi' } }));
    const path = `/chats/${chatId}/active`;
    await see(f.request('POST', path, { body: { messageId: 'u1' } }), 200);
    await see(f.request('POST', path, { body: {} }), 400);
    await see(f.request('POST', path, { user: null, body: { messageId: 'u1' } }), 401);
    await see(f.request('POST', path, { body: { messageId: 'unknown' } }), 404);
    await see(f.request('POST', path, { raw: JSON.stringify({ messageId: 'x'.repeat(400) }) }), 413);
    const slowChat = await slow.createChat('alice');
    const stalled = new ReadableStream<Uint8Array>({ start: (c) => c.enqueue(new TextEncoder().encode('{"messageId":')) });
    await see(
      slow.handler(
        new Request(`${BASE}/chats/${slowChat}/active`, {
          method: 'POST',
          headers: { authorization: `Bearer ${await signToken('alice')}`, 'content-type': 'application/json' },
          body: stalled,
          duplex: 'half',
        } as RequestInit),
      ),
      408,
    );
    scripted.pauseAt(scripted.calls.length * 8 + 2);
    const running = await f.request('POST', '/chat', { body: { chatId, trigger: 'regenerate' } });
    await see(f.request('POST', path, { body: { messageId: 'u1' } }), 409);
    scripted.release();
    await readSse(running);
    const downChat = await down.createChat('alice');
    for (const op of ['get', 'query', 'update', 'transaction'] as const) faulty.failAlways(op, { error: new ChatwireError('UNAVAILABLE', 'The database connection was lost') });
    await see(down.request('POST', `/chats/${downChat}/active`, { body: { messageId: 'u1' } }), 503);

    const documented = Object.keys(document.paths['/chats/{id}/active']!.post!.responses).sort();
    expect([...seen].map(String).sort()).toEqual(documented);
  });
});
