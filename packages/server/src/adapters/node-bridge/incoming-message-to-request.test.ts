import { afterEach, describe, expect, it } from 'vitest';
import { serveNode } from '../testing/serve-node.js';
import { incomingMessageToRequest, type NodeRequest } from './incoming-message-to-request.js';

const servers: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** Serves one route that converts the request, lets `inspect` look at it, and answers 204. */
async function convertOnServer(
  prepare: (req: NodeRequest) => Promise<void> | void,
  inspect: (request: Request) => Promise<void>,
): Promise<string> {
  const server = await serveNode((req, res) => {
    void (async () => {
      try {
        await prepare(req);
        await inspect(incomingMessageToRequest(req, res, { url: '/full/path?x=1' }));
        res.writeHead(204).end();
      } catch (error) {
        res.writeHead(500).end(String(error));
      }
    })();
  });
  servers.push(server);
  return server.url;
}

describe('incomingMessageToRequest', () => {
  it('copies method, url, headers and streams the body', async () => {
    let seen: { method: string; url: string; custom: string | null; body: string } | undefined;
    const url = await convertOnServer(
      () => undefined,
      async (request) => {
        seen = {
          method: request.method,
          url: request.url,
          custom: request.headers.get('x-custom'),
          body: await request.text(),
        };
      },
    );
    const response = await fetch(`${url}/ignored`, { method: 'POST', headers: { 'x-custom': 'yes' }, body: 'hello' });
    expect(response.status).toBe(204);
    expect(seen).toEqual({ method: 'POST', url: `${url}/full/path?x=1`, custom: 'yes', body: 'hello' });
  });

  it('reuses a body that a parser already consumed, re-serialised as JSON', async () => {
    let seen: { body: unknown; type: string | null; length: string | null } | undefined;
    const url = await convertOnServer(
      async (req) => {
        for await (const _chunk of req) void _chunk; // what express.json() does: read the stream...
        req.body = { parsed: true, n: 1 }; // ...and leave the result on req.body
      },
      async (request) => {
        const text = await request.text();
        seen = { body: JSON.parse(text), type: request.headers.get('content-type'), length: request.headers.get('content-length') };
      },
    );
    await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{ "parsed" : true , "n": 1 }' });
    expect(seen).toEqual({ body: { parsed: true, n: 1 }, type: 'application/json', length: String('{"parsed":true,"n":1}'.length) });
  });

  it('reads the stream when req.body is set but nothing consumed it (Express 4 sets {})', async () => {
    let body: string | undefined;
    const url = await convertOnServer(
      (req) => void (req.body = {}),
      async (request) => void (body = await request.text()),
    );
    await fetch(url, { method: 'POST', body: 'raw text' });
    expect(body).toBe('raw text');
  });

  it('aborts the signal when the client disconnects, not when the response finishes', async () => {
    let finishedSignal: AbortSignal | undefined;
    let pendingAborted: Promise<boolean> | undefined;
    const server = await serveNode((req, res) => {
      const request = incomingMessageToRequest(req, res);
      if (req.url === '/finish') {
        finishedSignal = request.signal;
        res.end('done');
        return;
      }
      pendingAborted = new Promise((resolve) => request.signal.addEventListener('abort', () => resolve(true)));
      res.flushHeaders(); // never ends: the client will go away
    });
    servers.push(server);

    expect(await (await fetch(`${server.url}/finish`)).text()).toBe('done');
    await new Promise((resolve) => setImmediate(resolve));
    expect(finishedSignal?.aborted).toBe(false);

    const client = new AbortController();
    const response = await fetch(`${server.url}/hang`, { signal: client.signal });
    expect(response.status).toBe(200);
    client.abort();
    expect(await pendingAborted).toBe(true);
  });
});
