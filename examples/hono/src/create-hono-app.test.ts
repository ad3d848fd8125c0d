import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { createExampleApp, type ExampleApp } from '@chatwire/example-fetch/create-example-app';
import { runExampleSmoke } from '@chatwire/example-fetch/example-smoke';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHonoApp } from './create-hono-app.js';

describe('hono example (@hono/node-server)', () => {
  let example: ExampleApp;
  let server: ServerType;
  let baseUrl: string;
  beforeAll(async () => {
    example = await createExampleApp({}, { demoChunkDelayMs: 0, onError: () => undefined });
    await new Promise<void>((resolve) => {
      server = serve({ fetch: createHonoApp(example).fetch, port: 0, hostname: '127.0.0.1' }, () => resolve());
    });
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await example.close();
  });

  it('serves the page, signs in and runs chats with tool calls end to end', async () => {
    await runExampleSmoke(baseUrl);
  });

  it("keeps the app's own routes reachable", async () => {
    expect(await (await fetch(`${baseUrl}/healthz`)).json()).toEqual({ ok: true });
  });
});
