import { ChatwireError } from '@chatwire/storage';
import { createMemoryDriver } from '@chatwire/storage/memory';
import { withFaults, type DriverOperation } from '@chatwire/storage/testing';
import { describe, expect, it } from 'vitest';
import { BASE, chatFixture, readSse, signToken, type ChatFixture } from '../test-support/chat-fixture.js';
import { scriptedModel, textStep } from '../test-support/scripted-model.js';
import { buildOpenApiDocument } from './build-openapi-document.js';
import { FEEDBACK_SHARE_PATHS } from './feedback-share-openapi.js';
import { ATTACHMENT_PATHS } from './attachments-openapi.js';
import { BRANCH_PATHS } from './branches-openapi.js';

/**
 * Every status `GET /openapi.json` lists for an operation is one the route really answers, and the route
 * answers no status the document leaves out: each documented status is produced here by a request, and
 * the statuses produced per operation are exactly the documented ones.
 */

type Operation = { responses: Record<string, unknown> };
const document = buildOpenApiDocument({ basePath: '/api/ai' }) as { paths: Record<string, Record<string, Operation>> };

function documented(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [path, item] of Object.entries(document.paths)) {
    // Produced in feedback-share-statuses.test.ts (share routes need `sharing` on).
    if (FEEDBACK_SHARE_PATHS.includes(path)) continue;
    // Produced in attachment-routes.test.ts and attachment-upload-limit.test.ts.
    if (ATTACHMENT_PATHS.includes(path)) continue;
    // Produced in branches-statuses.test.ts (the route needs `history: 'tree'`).
    if (BRANCH_PATHS.includes(path)) continue;
    for (const [method, operation] of Object.entries(item)) {
      if (method !== 'parameters') out.set(`${method.toUpperCase()} ${path}`, Object.keys(operation.responses).sort());
    }
  }
  return out;
}

const OPS: DriverOperation[] = ['insert', 'get', 'query', 'update', 'delete', 'deleteWhere', 'transaction', 'search'];
const turn = (chatId: string, userMessageId: string) => ({ chatId, userMessageId, content: 'Hi' });

/** A body that starts and never ends (the 408 case). */
function stalledBody(): ReadableStream<Uint8Array> {
  return new ReadableStream({ start: (controller) => controller.enqueue(new TextEncoder().encode('{"title":')) });
}

async function stalled(method: string, path: string): Promise<Response> {
  return fixtureFor408.handler(
    new Request(`${BASE}${path}`, {
      method,
      headers: { authorization: `Bearer ${await signToken('alice')}`, 'content-type': 'application/json' },
      body: stalledBody(),
      duplex: 'half',
    } as RequestInit),
  );
}

let fixtureFor408: ChatFixture;

describe('the statuses of GET /openapi.json', () => {
  it('are exactly the statuses each route answers', async () => {
    const scripted = scriptedModel([textStep('One.'), textStep('Two, slowly.'), textStep('Three.')]);
    const f = chatFixture(scripted.model, { handler: { maxBodyBytes: 512, turnsPerMinute: 3 } });
    fixtureFor408 = chatFixture(scriptedModel([]).model, { handler: { bodyTimeoutMs: 20 } });
    const faulty = withFaults(createMemoryDriver());
    const down = chatFixture(scriptedModel([]).model, { driver: faulty });
    const downChat = await down.createChat('alice');
    for (const op of OPS) faulty.failAlways(op, { error: new ChatwireError('UNAVAILABLE', 'The database connection was lost') });

    const produced = new Map<string, Set<string>>();
    const see = async (operation: string, response: Response | Promise<Response>, expected: number): Promise<Response> => {
      const res = await response;
      expect({ operation, status: res.status }).toEqual({ operation, status: expected });
      if (!produced.has(operation)) produced.set(operation, new Set());
      produced.get(operation)!.add(String(res.status));
      return res;
    };
    const chat = await f.createChat('alice', 'Mine');
    const big = { title: 'x'.repeat(600) };

    // Every operation: no token (401), and the store down (503) where the route reads it.
    for (const [operation] of documented()) {
      const [method, template] = operation.split(' ') as [string, string];
      const path = template.replace('{id}', chat) + (template === '/search' ? '?q=hello' : '');
      const body = method === 'GET' || method === 'DELETE' ? {} : { body: template === '/chat' ? turn(chat, 'u0') : { title: 'T' } };
      if (template === '/openapi.json') await see(operation, f.request(method, path, { user: null }), 200);
      else await see(operation, f.request(method, path, { user: null, ...body }), 401);
      if (template !== '/openapi.json' && template !== '/models' && template !== '/tools') {
        await see(operation, down.request(method, template.replace('{id}', downChat) + (template === '/search' ? '?q=hello' : ''), { ...(template === '/chat' ? { body: turn(downChat, 'u0') } : body) }), 503);
      }
    }

    await see('GET /chats', f.request('GET', '/chats'), 200);
    await see('GET /chats', f.request('GET', '/chats?limit=0'), 400);
    await see('POST /chats', f.request('POST', '/chats', { body: { title: 'New' } }), 201);
    await see('POST /chats', f.request('POST', '/chats', { body: { title: ' ' } }), 400);
    await see('POST /chats', f.request('POST', '/chats', { body: big }), 413);
    await see('POST /chats', stalled('POST', '/chats'), 408);
    await see('GET /chats/{id}', f.request('GET', `/chats/${chat}`), 200);
    await see('GET /chats/{id}', f.request('GET', '/chats/nope'), 404);
    await see('PATCH /chats/{id}', f.request('PATCH', `/chats/${chat}`, { body: { title: 'Renamed' } }), 200);
    await see('PATCH /chats/{id}', f.request('PATCH', `/chats/${chat}`, { body: {} }), 400);
    await see('PATCH /chats/{id}', f.request('PATCH', '/chats/nope', { body: { title: 'x' } }), 404);
    await see('PATCH /chats/{id}', f.request('PATCH', `/chats/${chat}`, { body: big }), 413);
    await see('PATCH /chats/{id}', stalled('PATCH', `/chats/${await fixtureFor408.createChat('alice')}`), 408);
    await see('GET /models', f.request('GET', '/models'), 200);
    await see('GET /tools', f.request('GET', '/tools'), 200);
    await see('GET /usage', f.request('GET', '/usage'), 200);
    await see('GET /usage', f.request('GET', '/usage?from=yesterday'), 400);
    await see('GET /search', f.request('GET', '/search?q=mine'), 200);
    await see('GET /search', f.request('GET', '/search?q=%22%22'), 400);
    await see('GET /search', f.request('GET', '/search?q=mine&chatId=nope'), 404);
    const plain = createMemoryDriver();
    const withoutSearch = chatFixture(scriptedModel([]).model, { driver: { ...plain, capabilities: { sharedLeases: false, notifications: true } } });
    await see('GET /search', withoutSearch.request('GET', '/search?q=mine'), 501);

    // Turns: one that finishes, then one held mid-answer (resume, busy, stop), then the limit.
    expect((await readSse(await see('POST /chat', f.request('POST', '/chat', { body: turn(chat, 'u1') }), 200))).done).toBe(true);
    await see('POST /chat', f.request('POST', '/chat', { body: turn(chat, 'u1') }), 409);
    await see('POST /chat', f.request('POST', '/chat', { body: { chatId: chat } }), 400);
    await see('POST /chat', f.request('POST', '/chat', { body: turn('nope', 'u9') }), 404);
    await see('POST /chat', f.request('POST', '/chat', { body: { ...turn(chat, 'u9'), content: 'x'.repeat(600) } }), 413);
    await see('POST /chat', stalled('POST', '/chat'), 408);
    await see('GET /chats/{id}/stream', f.request('GET', `/chats/${chat}/stream`), 204);
    await see('POST /chats/{id}/stop', f.request('POST', `/chats/${chat}/stop`), 200);
    scripted.pauseAt(textStep('One.').length + 2); // the second turn stops after its first parts
    const held = await see('POST /chat', f.request('POST', '/chat', { body: turn(chat, 'u2') }), 200);
    const resumed = await see('GET /chats/{id}/stream', f.request('GET', `/chats/${chat}/stream`), 200);
    await see('POST /chat', f.request('POST', '/chat', { body: turn(chat, 'u3') }), 409);
    const stopping = see('POST /chats/{id}/stop', f.request('POST', `/chats/${chat}/stop`), 200);
    scripted.release();
    await Promise.all([readSse(held), readSse(resumed), stopping]);
    expect((await readSse(await see('POST /chat', f.request('POST', '/chat', { body: turn(chat, 'u4') }), 200))).done).toBe(true);
    await see('POST /chat', f.request('POST', '/chat', { body: turn(chat, 'u5') }), 429);
    await see('GET /chats/{id}/stream', f.request('GET', '/chats/nope/stream'), 404);
    await see('POST /chats/{id}/stop', f.request('POST', '/chats/nope/stop'), 404);
    await see('DELETE /chats/{id}', f.request('DELETE', `/chats/${chat}`), 200);
    await see('DELETE /chats/{id}', f.request('DELETE', `/chats/${chat}`), 404);

    const seen = new Map([...produced].map(([operation, statuses]) => [operation, [...statuses].sort()]));
    expect(Object.fromEntries(seen)).toEqual(Object.fromEntries(documented()));
    expect([f.errors, down.errors, fixtureFor408.errors]).toEqual([[], [], []]);
  });
});
