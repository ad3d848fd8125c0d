import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { chatwireExpress } from './adapters/express.js';
import { toNodeListener } from './adapters/node.js';
import { serveNode } from './adapters/testing/serve-node.js';
import { chatFixture, signToken } from './test-support/chat-fixture.js';
import { scriptedModel } from './test-support/scripted-model.js';
import { sendRawRequest, type RawResponse } from './test-support/send-raw-request.js';

/**
 * Requests Node's parser accepts but a web `Request`, `URL` or `Headers` refuses get a 4xx JSON error from
 * the node and express adapters, never a 500, and reach no `onError`: sent as raw bytes over real sockets.
 */

const servers: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

type Mount = 'node' | 'express';

async function serve(mount: Mount, options: { insecureHTTPParser?: boolean } = {}) {
  const f = chatFixture(scriptedModel([]).model);
  const adapterErrors: unknown[] = [];
  const onError = (error: unknown) => adapterErrors.push(error);
  const listener = mount === 'node' ? toNodeListener(f.handler, { onError }) : express().use(chatwireExpress(f.handler, { onError }));
  const server = createServer({ insecureHTTPParser: options.insecureHTTPParser ?? false }, listener as never);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  servers.push({ close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve()))) });
  const chatId = await f.createChat('alice');
  return { f, url, adapterErrors, chatId, token: await signToken('alice') };
}

function expectJsonError(res: RawResponse, status: number, code: string): { code: string; message: string } {
  expect({ status: res.status, type: res.headers['content-type'] }).toEqual({ status, type: expect.stringContaining('application/json') });
  const error = (JSON.parse(res.body) as { error: { code: string; message: string } }).error;
  expect(error).toEqual({ code, message: expect.any(String) });
  return error;
}

describe.each<Mount>(['node', 'express'])('requests a web Request cannot carry, on %s', (mount) => {
  it('TRACE under the base path is 405 with the route’s Allow (404 off the routes), like any other method', async () => {
    const { f, url, adapterErrors, chatId, token } = await serve(mount);
    const auth = `Authorization: Bearer ${token}`;
    const chats = await sendRawRequest(url, `TRACE /api/ai/chats HTTP/1.1\r\nHost: localhost\r\n${auth}`);
    expect(expectJsonError(chats, 405, 'METHOD_NOT_ALLOWED').message).toBe('TRACE is not allowed on /api/ai/chats');
    expect(chats.headers.allow).toBe('GET, POST');
    const chat = await sendRawRequest(url, `TRACE /api/ai/chats/${chatId} HTTP/1.1\r\nHost: localhost`, 'a body');
    expectJsonError(chat, 405, 'METHOD_NOT_ALLOWED');
    expect(chat.headers.allow).toBe('GET, PATCH, DELETE');
    expectJsonError(await sendRawRequest(url, 'TRACE /api/ai/nothing-here HTTP/1.1\r\nHost: localhost'), 404, 'NOT_FOUND');
    expect([f.errors, adapterErrors]).toEqual([[], []]);
  });

  it.each([
    ['GET', '/api/ai/chats', 'user:pw@evil.test'],
    ['GET', '/api/ai/chats', 'user@evil.test'],
    ['POST', '/api/ai/chats', 'user:pw@evil.test'],
    ['GET', 'http://u:p@evil.test/api/ai/chats', 'localhost'],
    ['POST', 'http://u:p@evil.test/api/ai/chats', 'localhost'],
    ['DELETE', 'http://u@evil.test/api/ai/chats/x', 'localhost'],
  ])('credentials: %s %s with Host %s is 400 VALIDATION', async (method, target, host) => {
    const { f, url, adapterErrors, token } = await serve(mount);
    const body = method === 'POST' ? '{"title":"x"}' : '';
    const res = await sendRawRequest(url, `${method} ${target} HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json`, body);
    expect(expectJsonError(res, 400, 'VALIDATION').message).toContain('credentials');
    expect([f.errors, adapterErrors, await f.rows('ai-chats')]).toEqual([[], [], [expect.anything()]]);
  });

  it.each(['http://[::1/api/ai/chats', 'http://evil.test:99999/api/ai/chats', 'http://evil.test:x/api/ai/chats'])(
    'an absolute-form target that is no URL (%s) is 400 VALIDATION',
    async (target) => {
      const { f, url, adapterErrors, token } = await serve(mount);
      const res = await sendRawRequest(url, `GET ${target} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${token}`);
      // The express middleware only takes paths under the base path: no path can be read here, so the
      // request goes on to express, whose own 404 answers it.
      if (mount === 'express') expect(res.status).toBe(404);
      else expectJsonError(res, 400, 'VALIDATION');
      expect([f.errors, adapterErrors]).toEqual([[], []]);
    },
  );

  it('a header value Headers refuses (NUL, passed by the lenient parser) is 400 VALIDATION naming it', async () => {
    const { f, url, adapterErrors, token } = await serve(mount, { insecureHTTPParser: true });
    const head = `POST /api/ai/chats HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nX-Odd: a\u0000b`;
    expect(expectJsonError(await sendRawRequest(url, head, '{}'), 400, 'VALIDATION').message).toBe('The "x-odd" header is not a valid HTTP header');
    expect([f.errors, adapterErrors]).toEqual([[], []]);
  });

  it('the same on an upload, whose body the node adapter reads off the socket (not through a Request)', async () => {
    const { f, url, adapterErrors, token } = await serve(mount, { insecureHTTPParser: true });
    const head = `POST /api/ai/attachments HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${token}\r\nContent-Type: text/plain\r\nX-Odd: a\u0000b`;
    expect(expectJsonError(await sendRawRequest(url, head, 'hello'), 400, 'VALIDATION').message).toBe('The "x-odd" header is not a valid HTTP header');
    expect(await f.rows('ai-attachments')).toEqual([]);
    expect([f.errors, adapterErrors]).toEqual([[], []]);
  });

  it.each([
    ['/api/ai/chats/%', 404],
    ['/api/ai/chats/%ZZ', 404],
    ['/api/ai/chats/[::1]', 404],
    ['/api/ai/chats?limit=%', 400],
    ['/api/ai/chats?cursor=%E0%A4%A', 400],
    ['http://[::1]:8080/api/ai/chats', 200],
    ['http://evil.test./api/ai/chats', 200],
  ])('a target with odd percent-encoding or an IPv6 host (%s) is answered by the routes: %i', async (target, status) => {
    const { f, url, adapterErrors, token } = await serve(mount);
    const res = await sendRawRequest(url, `GET ${target} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${token}`);
    expect(res.status).toBe(status);
    expect(res.headers['content-type']).toContain('application/json');
    expect([f.errors, adapterErrors]).toEqual([[], []]);
  });

  it.each(['a b', '[::1', 'evil.test:99999', '', 'evil.test/x?y#z', '[::1]:8080', 'ev\u00e9il'])(
    'a Host header that names no host (%j) reads as localhost: the route answers',
    async (host) => {
      const { f, url, adapterErrors, token } = await serve(mount);
      const res = await sendRawRequest(url, `GET /api/ai/chats HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${token}`);
      expect(res.status).toBe(200);
      expect((JSON.parse(res.body) as { chats: unknown[] }).chats).toHaveLength(1);
      expect([f.errors, adapterErrors]).toEqual([[], []]);
    },
  );
});

describe('the node adapter', () => {
  it('reads a target starting with // as a path of this host, as its middleware mode does', async () => {
    const { f, url, token } = await serve('node');
    const res = await sendRawRequest(url, `GET //evil.test/api/ai/chats HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${token}`);
    expect(expectJsonError(res, 404, 'NOT_FOUND').message).toBe('No route for GET //evil.test/api/ai/chats');
    expect(f.errors).toEqual([]);
  });

  it('answers TRACE for a handler of its own with 405 (it cannot know that handler’s methods)', async () => {
    const calls: Request[] = [];
    const handler = Object.assign(async (request: Request) => (calls.push(request), new Response('ok')), {
      basePath: '/api/ai',
      matches: (pathname: string) => pathname.startsWith('/api/ai'),
    });
    const server = await serveNode(toNodeListener(handler) as never);
    servers.push(server);
    const res = await sendRawRequest(server.url, 'TRACE /api/ai/chats HTTP/1.1\r\nHost: localhost');
    expectJsonError(res, 405, 'METHOD_NOT_ALLOWED');
    expect(res.headers.allow).toBe('');
    expect(calls).toEqual([]);
  });
});
