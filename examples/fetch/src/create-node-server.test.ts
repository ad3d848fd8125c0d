import { afterAll, beforeAll, describe, it } from 'vitest';
import { createExampleApp, type ExampleApp } from './create-example-app.js';
import { createNodeServer } from './create-node-server.js';
import { listenNode } from './listen-node.js';
import type { RunningServer } from './run-example.js';
import { runExampleSmoke } from './testing/example-smoke.js';

describe('fetch example (node:http)', () => {
  let example: ExampleApp;
  let server: RunningServer;
  beforeAll(async () => {
    example = await createExampleApp({ PORT: '0' }, { demoChunkDelayMs: 0, onError: () => undefined });
    server = await listenNode(createNodeServer(example), example.port);
  });
  afterAll(async () => {
    await server.close();
    await example.close();
  });

  it('serves the page, signs in and runs chats with tool calls end to end', async () => {
    await runExampleSmoke(`http://127.0.0.1:${server.port}`);
  });
});
