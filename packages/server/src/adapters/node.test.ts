import { afterEach, describe, expect, it } from 'vitest';
import { createChatHandler } from '../create-chat-handler.js';
import { SECRET, signToken } from '../test-support/chat-fixture.js';
import { pathnameOf } from './node-bridge/pathname-of.js';
import { toNodeListener } from './node.js';
import { createEchoHandler } from './testing/create-echo-handler.js';
import { serveNode } from './testing/serve-node.js';

const servers: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(errors: unknown[] = []): Promise<string> {
  const server = await serveNode(toNodeListener(createEchoHandler(), { onError: (e) => void errors.push(e) }));
  servers.push(server);
  return server.url;
}

describe('toNodeListener', () => {
  it('lets the handler answer 404 JSON outside the base path when there is no next()', async () => {
    const response = await fetch(`${await serve()}/elsewhere`);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'no route' } });
  });

  it('passes method, path and body through', async () => {
    const response = await fetch(`${await serve()}/api/ai/chats?limit=2`, { method: 'PATCH', body: '{"title":"t"}' });
    expect(await response.json()).toEqual({ method: 'PATCH', path: '/api/ai/chats', body: '{"title":"t"}' });
  });

  it('turns a throwing handler into 500 JSON and reports the error', async () => {
    const errors: unknown[] = [];
    const response = await fetch(`${await serve(errors)}/api/ai/throw`);
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ error: { code: 'INTERNAL', message: 'Internal server error' } });
    expect(errors).toMatchObject([{ message: 'handler exploded' }]);
  });

  it('ends the response and reports a stream that fails mid-way', async () => {
    const errors: unknown[] = [];
    const response = await fetch(`${await serve(errors)}/api/ai/broken`);
    expect(await response.text()).toBe('data: {"type":"start"}\n\n');
    expect(errors).toMatchObject([{ message: 'stream broke' }]);
  });
});

describe('toNodeListener over createChatHandler: GET JSON answers', () => {
  const transport = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);
  const headersOf = (response: Response) => [...response.headers].filter(([name]) => !transport.has(name));

  it('sends what the fetch handler answers (status, headers, body), in one piece with a Content-Length', async () => {
    const handler = createChatHandler({ auth: { secret: SECRET }, cors: { origin: 'https://app.test' } });
    for (const title of ['first', 'second', 'third']) await handler.service.createChat({ userId: 'u1' }, { title });
    const server = await serveNode(toNodeListener(handler));
    servers.push(server);
    const auth = { authorization: `Bearer ${await signToken('u1')}`, origin: 'https://app.test' };
    const cases: Array<[string, Record<string, string>]> = [
      ['/api/ai/chats', auth],
      ['/api/ai/chats?limit=2', auth],
      ['/api/ai/chats?limit=abc', auth],
      ['/api/ai/chats/not-a-chat', auth],
      ['/api/ai/chats', { origin: 'https://app.test' }],
      ['/api/ai/models', auth],
      ['/api/ai/chat', auth],
      ['/api/ai/nowhere', auth],
    ];
    for (const [path, headers] of cases) {
      const direct = await handler(new Request(`${server.url}${path}`, { headers }));
      const overNode = await fetch(`${server.url}${path}`, { headers });
      const body = await overNode.text();
      expect({ path, status: overNode.status, headers: headersOf(overNode), body }).toEqual({
        path,
        status: direct.status,
        headers: headersOf(direct),
        body: await direct.text(),
      });
      expect(overNode.headers.get('content-length')).toBe(String(Buffer.byteLength(body)));
    }
  });
});

describe('pathnameOf', () => {
  it.each([
    ['/api/ai/chats?x=1', '/api/ai/chats'],
    ['/api/ai#frag', '/api/ai'],
    ['/', '/'],
    ['http://host/api/ai/chat?x', '/api/ai/chat'],
  ])('%s -> %s', (target, expected) => {
    expect(pathnameOf(target)).toBe(expected);
  });
});
