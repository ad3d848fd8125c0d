import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { createChatHandler } from '@chatwire/server';
import { chatwireHono } from '@chatwire/server/hono';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** Raw requests a web Request cannot carry, through @hono/node-server: a 4xx JSON answer, never a 500. */
describe('chatwireHono on @hono/node-server', () => {
  const errors: unknown[] = [];
  let server: ServerType;
  let port: number;
  beforeAll(async () => {
    const handler = createChatHandler({ auth: { secret: 'a-test-secret-that-is-at-least-32-bytes' }, onError: (error) => errors.push(error) });
    const app = new Hono().use(chatwireHono(handler));
    await new Promise<void>((resolve) => {
      server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve());
    });
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  function send(head: string, body = ''): Promise<{ status: number; body: string }> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      let out = '';
      socket.on('data', (chunk) => (out += chunk.toString('latin1')));
      socket.on('error', reject);
      socket.on('close', () => resolve({ status: Number(out.split(' ')[1]), body: out.slice(out.indexOf('\r\n\r\n') + 4) }));
      const length = body === '' ? '' : `Content-Length: ${body.length}\r\n`;
      socket.end(`${head}\r\n${length}Connection: close\r\n\r\n${body}`);
    });
  }

  it.each([
    ['GET http://u:p@evil.test/api/ai/chats HTTP/1.1\r\nHost: localhost', '', 400, 'VALIDATION'],
    ['POST http://u:p@evil.test/api/ai/chats HTTP/1.1\r\nHost: localhost', '{}', 400, 'VALIDATION'],
    ['TRACE /api/ai/chats HTTP/1.1\r\nHost: localhost', '', 405, 'METHOD_NOT_ALLOWED'],
  ])('%j', async (head, body, status, code) => {
    const res = await send(head, body);
    expect(res.status).toBe(status);
    expect(JSON.parse(res.body)).toEqual({ error: { code, message: expect.any(String) } });
    expect(errors).toEqual([]);
  });
});
