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

  it("keeps the app's own routes reachable", async () => {
    expect(await (await fetch(`http://127.0.0.1:${server.port}/healthz`)).json()).toEqual({ ok: true });
  });
});
