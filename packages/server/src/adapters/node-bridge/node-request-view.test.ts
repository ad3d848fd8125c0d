import { ChatwireError } from '@chatwire/storage';
import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { serveNode } from '../testing/serve-node.js';
import { incomingMessageToRequest } from './incoming-message-to-request.js';
import { nodeRequestView } from './node-request-view.js';

const servers: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** A GET with exactly these header lines (repeated names included; node adds none, not even Host). */
function send(port: number, path: string, headers: Array<[string, string]>): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method: 'GET', headers: headers.flat() }, (res) => {
      res.resume();
      res.on('end', resolve);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('nodeRequestView', () => {
  it('reads as the Request incomingMessageToRequest makes: method, URL, header values', async () => {
    const names = ['authorization', 'x-twice', 'cookie', 'host', 'x-missing', 'Content-Type'];
    let seen: { view: unknown; request: unknown } | undefined;
    const server = await serveNode((req, res) => {
      const view = nodeRequestView(req, res, undefined)!;
      const request = incomingMessageToRequest(req, res);
      const read = (r: { method: string; url: string; headers: { get(n: string): string | null } }) => ({
        method: r.method,
        url: r.url,
        headers: names.map((n) => r.headers.get(n)),
      });
      seen = { view: read(view), request: read(request) };
      res.end();
    });
    servers.push(server);
    const { port, host } = new URL(server.url);
    await send(Number(port), '/api/ai/chats?limit=2&cursor=a%20b', [
      ['Host', host],
      ['Authorization', 'Bearer abc'],
      ['X-Twice', 'one'],
      ['X-Twice', 'two'],
      ['Cookie', 'a=1'],
      ['Cookie', 'b=2'],
      ['Content-Type', 'application/json'],
    ]);
    expect(seen?.view).toEqual(seen?.request);
    expect(seen?.view).toMatchObject({ method: 'GET', url: `${server.url}/api/ai/chats?limit=2&cursor=a%20b` });
  });

  it('uses the path it is given, and refuses a URL with credentials (Request would throw) with a VALIDATION error', async () => {
    let urls: Array<string | null> = [];
    let refusal: unknown;
    const server = await serveNode((req, res) => {
      urls = [nodeRequestView(req, res, '/mounted/api/ai/chats').url];
      req.headers.host = 'user:secret@example.test';
      try {
        nodeRequestView(req, res, undefined);
      } catch (error) {
        refusal = error;
      }
      res.end();
    });
    servers.push(server);
    await fetch(`${server.url}/api/ai/chats`);
    expect(urls).toEqual([`${server.url}/mounted/api/ai/chats`]);
    expect(ChatwireError.is(refusal, 'VALIDATION')).toBe(true);
  });

  it('aborts the signal when the client goes away, not when the answer is sent', async () => {
    let finished: AbortSignal | undefined;
    let pending: Promise<boolean> | undefined;
    let lateRead: Promise<AbortSignal> | undefined;
    const server = await serveNode((req, res) => {
      const view = nodeRequestView(req, res, undefined)!;
      if (req.url === '/finish') {
        finished = view.signal;
        res.end('done');
        return;
      }
      if (req.url === '/late') {
        // The signal first read after the client left is already aborted.
        lateRead = new Promise((resolve) => res.once('close', () => setImmediate(() => resolve(view.signal))));
        res.flushHeaders();
        return;
      }
      pending = new Promise((resolve) => view.signal.addEventListener('abort', () => resolve(true)));
      res.flushHeaders();
    });
    servers.push(server);

    expect(await (await fetch(`${server.url}/finish`)).text()).toBe('done');
    await new Promise((resolve) => setImmediate(resolve));
    expect(finished?.aborted).toBe(false);

    for (const path of ['/hang', '/late']) {
      const client = new AbortController();
      const response = await fetch(`${server.url}${path}`, { signal: client.signal });
      expect(response.status).toBe(200);
      client.abort();
    }
    expect(await pending).toBe(true);
    const late = await lateRead!;
    expect(late.aborted).toBe(true);
    expect((late.reason as DOMException).name).toBe('AbortError');
  });
});
