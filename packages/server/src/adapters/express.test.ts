import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type Express } from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { chatwireExpress, chatwireExpressErrors } from './express.js';
import { createEchoHandler } from './testing/create-echo-handler.js';

const closers: Array<() => void> = [];
afterEach(() => closers.splice(0).forEach((close) => close()));

async function listen(app: Express): Promise<string> {
  const server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => {
    server.closeAllConnections();
    server.close();
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('chatwireExpress', () => {
  it('matches the full originalUrl when mounted under a prefix', async () => {
    const app = express();
    app.use('/api', chatwireExpress(createEchoHandler()));
    const response = await fetch(`${await listen(app)}/api/ai/chats`);
    expect(await response.json()).toMatchObject({ path: '/api/ai/chats' });
  });

  it('reuses the body express.json() parsed', async () => {
    const app = express();
    app.use(express.json());
    app.use(chatwireExpress(createEchoHandler()));
    const response = await fetch(`${await listen(app)}/api/ai/chats`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{ "title" : "spaced" }',
    });
    expect(await response.json()).toMatchObject({ body: '{"title":"spaced"}' });
  });

  it('reports handler errors through onError and answers 500 JSON', async () => {
    const errors: unknown[] = [];
    const app = express();
    app.use(chatwireExpress(createEchoHandler(), { onError: (e) => void errors.push(e) }));
    const response = await fetch(`${await listen(app)}/api/ai/throw`);
    expect(response.status).toBe(500);
    expect(errors).toHaveLength(1);
  });
});

describe('chatwireExpressErrors', () => {
  /** express.json() mounted first, as apps usually do, then chatwire, then its error middleware. */
  async function appWithJsonFirst(errors: unknown[] = []): Promise<string> {
    const handler = createEchoHandler();
    const app = express();
    app.use(express.json({ limit: 1024 }));
    app.use(chatwireExpress(handler));
    app.post('/app/echo', (req, res) => void res.json(req.body));
    app.use(chatwireExpressErrors(handler, { onError: (e) => void errors.push(e) }));
    return listen(app);
  }

  const post = (url: string, body: string, contentType = 'application/json'): Promise<Response> =>
    fetch(url, { method: 'POST', headers: { 'content-type': contentType }, body });

  it('answers invalid JSON with chatwire\'s 400 VALIDATION error', async () => {
    const response = await post(`${await appWithJsonFirst()}/api/ai/chats`, '{not json');
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toEqual({ error: { code: 'VALIDATION', message: 'Request body is not valid JSON' } });
  });

  it('answers a body over the parser limit with chatwire\'s 413 PAYLOAD_TOO_LARGE error', async () => {
    const response = await post(`${await appWithJsonFirst()}/api/ai/chat`, JSON.stringify({ content: 'x'.repeat(4096) }));
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({
      error: { code: 'PAYLOAD_TOO_LARGE', message: 'Request body is larger than 1024 bytes' },
    });
  });

  it('answers an unsupported charset with a 400 VALIDATION error that names it', async () => {
    const response = await post(`${await appWithJsonFirst()}/api/ai/chats`, '{}', 'application/json; charset=klingon');
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: { code: 'VALIDATION', message: 'Request body could not be read: unsupported charset "KLINGON"' },
    });
  });

  it('leaves other paths to the app (Express\'s own error page)', async () => {
    const url = await appWithJsonFirst();
    const response = await post(`${url}/app/echo`, '{not json');
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await (await post(`${url}/app/echo`, '{"ok":true}')).json()).toEqual({ ok: true });
  });

  it('leaves errors that are not about the body to the app', async () => {
    const handler = createEchoHandler();
    const app = express();
    app.use((_req, _res, next) => next(new Error('database down')));
    app.use(chatwireExpress(handler));
    app.use(chatwireExpressErrors(handler));
    const response = await fetch(`${await listen(app)}/api/ai/chats`);
    expect(response.status).toBe(500);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
  });
});
