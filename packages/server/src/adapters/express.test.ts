import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type Express } from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { chatwireExpress } from './express.js';
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
