import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe } from 'vitest';
import type { ChatHandlerLike } from '../chat-handler-like.js';
import { chatwireExpress } from '../express.js';
import { chatwireHono } from '../hono.js';
import { toNodeListener } from '../node.js';

/** The ways a chat handler is mounted; every matrix test runs once per entry (like h3's test/_setup.ts). */
export const ADAPTER_NAMES = ['fetch', 'hono', 'express', 'express+json', 'node'] as const;
export type AdapterName = (typeof ADAPTER_NAMES)[number];

/** Route the host app answers itself, to prove requests outside the base path fall through. */
export const APP_ROUTE = '/app/hello';
export const APP_ROUTE_TEXT = 'hello from the app';

export interface AdapterTarget {
  readonly name: AdapterName;
  /** False for the bare fetch handler: it has no host app and answers every path itself. */
  readonly fallsThrough: boolean;
  /** Sends a request; `init.signal` aborting is the client going away (the connection closes). */
  fetch(path: string, init?: RequestInit): Promise<Response>;
  /** Errors the adapter reported through `onError`. */
  readonly errors: unknown[];
}

/**
 * Runs `tests` against the handler mounted in each adapter. Servers listen on 127.0.0.1, port 0.
 * `createHandler` is called once per adapter.
 */
export function describeAdapterMatrix(
  createHandler: () => ChatHandlerLike | Promise<ChatHandlerLike>,
  tests: (target: () => AdapterTarget) => void,
): void {
  describe.each(ADAPTER_NAMES)('%s', (name) => {
    let mounted: { target: AdapterTarget; close(): Promise<void> } | undefined;
    beforeAll(async () => {
      mounted = await mount(name, await createHandler());
    });
    afterAll(async () => {
      await mounted?.close();
    });
    tests(() => {
      if (!mounted) throw new Error(`adapter ${name} is not mounted`);
      return mounted.target;
    });
  });
}

async function mount(name: AdapterName, handler: ChatHandlerLike): Promise<{ target: AdapterTarget; close(): Promise<void> }> {
  const errors: unknown[] = [];
  const onError = (error: unknown): void => void errors.push(error);
  switch (name) {
    case 'fetch':
      return inProcess(name, false, errors, handler);
    case 'hono': {
      const app = new Hono();
      app.use(chatwireHono(handler));
      app.get(APP_ROUTE, (c) => c.text(APP_ROUTE_TEXT));
      return inProcess(name, true, errors, (request) => Promise.resolve(app.fetch(request)));
    }
    case 'express':
    case 'express+json': {
      const app = express();
      if (name === 'express+json') app.use(express.json({ limit: '10mb' }));
      app.use(chatwireExpress(handler, { onError }));
      app.get(APP_ROUTE, (_req, res) => void res.type('text/plain').send(APP_ROUTE_TEXT));
      return listen(name, errors, createServer(app));
    }
    case 'node': {
      const listener = toNodeListener(handler, { onError });
      const server = createServer((req, res) =>
        listener(req, res, () => {
          res.writeHead(req.url === APP_ROUTE ? 200 : 404, { 'content-type': 'text/plain' });
          res.end(req.url === APP_ROUTE ? APP_ROUTE_TEXT : 'not found');
        }),
      );
      return listen(name, errors, server);
    }
  }
}

function inProcess(
  name: AdapterName,
  fallsThrough: boolean,
  errors: unknown[],
  fetchHandler: (request: Request) => Promise<Response>,
): { target: AdapterTarget; close(): Promise<void> } {
  const fetch = async (path: string, init?: RequestInit): Promise<Response> => {
    const request = new Request(`http://localhost${path}`, init);
    const response = await fetchHandler(request);
    // A runtime cancels the response body when the client goes away; do the same here.
    request.signal.addEventListener('abort', () => void response.body?.cancel().catch(() => undefined));
    return response;
  };
  return { target: { name, fallsThrough, fetch, errors }, close: async () => undefined };
}

async function listen(
  name: AdapterName,
  errors: unknown[],
  server: Server,
): Promise<{ target: AdapterTarget; close(): Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const fetch = (path: string, init?: RequestInit): Promise<Response> =>
    globalThis.fetch(`http://127.0.0.1:${port}${path}`, init);
  const close = (): Promise<void> =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return { target: { name, fallsThrough: true, fetch, errors }, close };
}
