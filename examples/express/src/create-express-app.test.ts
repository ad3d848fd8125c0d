import { createServer } from 'node:http';
import { createExampleApp, type ExampleApp } from '@chatwire/example-fetch/create-example-app';
import { runExampleSmoke } from '@chatwire/example-fetch/example-smoke';
import { listenNode } from '@chatwire/example-fetch/listen-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExpressApp } from './create-express-app.js';

describe('express example', () => {
  let example: ExampleApp;
  let server: { port: number; close(): Promise<void> };
  beforeAll(async () => {
    example = await createExampleApp({ PORT: '0' }, { demoChunkDelayMs: 0, onError: () => undefined });
    server = await listenNode(createServer(createExpressApp(example)), example.port);
  });
  afterAll(async () => {
    await server.close();
    await example.close();
  });

  it('serves the page, signs in and runs chats with tool calls end to end', async () => {
    await runExampleSmoke(`http://127.0.0.1:${server.port}`);
  });

  it("answers a body express.json() rejected with chatwire's JSON error, not Express's HTML page", async () => {
    const { token } = (await (
      await fetch(`http://127.0.0.1:${server.port}/dev/sign-in`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'express-json' }),
      })
    ).json()) as { token: string };
    const response = await fetch(`http://127.0.0.1:${server.port}/api/ai/chats`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: '{"title": "unterminated',
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('VALIDATION');
    expect(body.error.message).not.toMatch(/<|at JSON\.parse/); // no HTML, no stack
    expect((await (await fetch(`http://127.0.0.1:${server.port}/api/ai/chats`, { headers: { authorization: `Bearer ${token}` } })).json()) as unknown).toEqual(
      expect.objectContaining({ chats: [] }),
    ); // nothing was created

    const tooBig = await fetch(`http://127.0.0.1:${server.port}/api/ai/chats`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ title: 'x'.repeat(200_000) }), // over express.json()'s default 100 kB limit
    });
    expect(tooBig.status).toBe(413);
    expect(((await tooBig.json()) as { error: { code: string } }).error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it("leaves the app's own routes to Express's error handling", async () => {
    const response = await fetch(`http://127.0.0.1:${server.port}/healthz`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{oops',
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
  });

  it("keeps the app's own routes reachable", async () => {
    expect(await (await fetch(`http://127.0.0.1:${server.port}/healthz`)).json()).toEqual({ ok: true });
  });
});
