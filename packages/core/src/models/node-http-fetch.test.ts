import { getEventListeners } from 'node:events';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { createAnthropic } from '@ai-sdk/anthropic';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createNodeHttpFetch } from './node-http-fetch.js';

type Route = (req: IncomingMessage, res: ServerResponse, body: string) => void;
const routes: Record<string, Route> = {
  '/echo': (req, res, body) => {
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([name]) => name !== 'host'));
    const seen = { method: req.method, body, headers, type: req.headers['content-type'], custom: req.headers['x-custom'], length: req.headers['content-length'] };
    res.writeHead(201, 'Made', { 'content-type': 'application/json', 'x-answer': 'yes', 'set-cookie': ['a=1', 'b=2'] });
    res.end(JSON.stringify(seen));
  },
  '/gzip': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' });
    res.end(gzipSync('compressed answer'));
  },
  '/drip': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write('data: first\n\n');
    const timer = setInterval(() => res.write('data: more\n\n'), 5);
    res.once('close', () => clearInterval(timer));
  },
  '/cut': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write('data: first\n\n');
    setTimeout(() => res.destroy(), 20);
  },
  '/redirect': (_req, res) => void res.writeHead(307, { location: '/echo' }).end(),
  '/empty': (_req, res) => void res.writeHead(204).end(),
  '/anthropic/messages': (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const events = [
      ['message_start', { type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 3, output_tokens: 1 } } }],
      ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }],
      ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hello' } }],
      ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: ' there' } }],
      ['content_block_stop', { type: 'content_block_stop', index: 0 }],
      ['message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 2 } }],
      ['message_stop', { type: 'message_stop' }],
    ] as const;
    res.end(events.map(([event, data]) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`).join(''));
  },
  '/anthropic-bad/messages': (_req, res) => {
    res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '3' });
    res.end(JSON.stringify({ type: 'error', error: { type: 'rate_limit_error', message: 'slow down' } }));
  },
};

let server: Server;
let base = '';
let big: { written: number; done: boolean } = { written: 0, done: false };
const sockets = new Set<unknown>();
beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/big') {
      // 16 MB in 64 KiB writes, each waiting for 'drain': how far it gets shows whether the client reads ahead.
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      big = { written: 0, done: false };
      const chunk = Buffer.alloc(65_536, 120);
      const write = () => {
        while (big.written < 16 * 2 ** 20) {
          big.written += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', write);
        }
        big.done = true;
        res.end();
      };
      return write();
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => routes[req.url ?? '']!(req, res, Buffer.concat(chunks).toString('utf8')));
  });
  server.on('connection', (socket) => sockets.add(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

const nodeFetch = createNodeHttpFetch();
const both = [
  ['global fetch', (...args: Parameters<typeof fetch>) => globalThis.fetch(...args)],
  ['node:http fetch', nodeFetch],
] as const;

async function caught(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe('createNodeHttpFetch answers as the global fetch does', () => {
  it('status, status text, headers, body and what the server receives', async () => {
    const answers = [];
    for (const [, f] of both) {
      const response = await f(`${base}/echo`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-custom': 'c' }, body: '{"a":"é"}' });
      answers.push({ status: response.status, text: response.statusText, ok: response.ok, url: response.url, answer: response.headers.get('x-answer'), type: response.headers.get('content-type'), cookies: response.headers.getSetCookie(), body: await response.json() });
    }
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[1]).toMatchObject({ status: 201, cookies: ['a=1', 'b=2'], body: { method: 'POST', body: '{"a":"é"}', custom: 'c', length: '10' } });
  });

  it('a byte body, a gzip answer, a 204 and a redirect', async () => {
    for (const [, f] of both) {
      const echo = await (await f(`${base}/echo`, { method: 'POST', body: new TextEncoder().encode('bytes') })).json();
      expect(echo).toMatchObject({ body: 'bytes', length: '5' });
      expect(await (await f(`${base}/gzip`)).text()).toBe('compressed answer');
      const empty = await f(`${base}/empty`);
      expect([empty.status, empty.body]).toEqual([204, null]);
      const redirected = await f(`${base}/redirect`, { method: 'POST', body: 'again' });
      expect(await redirected.json()).toMatchObject({ method: 'POST', body: 'again' });
    }
  });

  it('a pre-aborted call rejects with the signal reason; an abort mid-body errors the body with it', async () => {
    for (const [, f] of both) {
      const reason = new Error('stop');
      expect(await caught(f(`${base}/echo`, { signal: AbortSignal.abort(reason) }))).toBe(reason);
      const controller = new AbortController();
      const reader = (await f(`${base}/drip`, { signal: controller.signal })).body!.getReader();
      await reader.read();
      controller.abort();
      const error = await caught((async () => { for (;;) if ((await reader.read()).done) return; })());
      expect(error).toBe(controller.signal.reason);
      expect((error as Error).name).toBe('AbortError');
    }
  });

  it("an open answer's body keeps neither the call's init nor its request body", async () => {
    // Every streamed turn holds its provider answer open for the whole stream; what the listeners reach then
    // stays per open stream (the provider request body is ~9 KB with the example's tools).
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const controller = new AbortController();
    const sent = async () => {
      const init: RequestInit = { method: 'POST', body: 'x'.repeat(64 * 1024), signal: controller.signal };
      const response = await nodeFetch(`${base}/drip`, init);
      return { initRef: new WeakRef(init), reader: response.body!.getReader() };
    };
    const { initRef, reader } = await sent();
    await reader.read();
    for (let i = 0; i < 3 && initRef.deref() !== undefined; i++) {
      await new Promise((resolve) => setImmediate(resolve));
      gc();
    }
    expect(initRef.deref()).toBeUndefined();
    expect((await reader.read()).done).toBe(false); // the answer is still open
    await reader.cancel();
  });

  it('leaves no listener on a signal many calls share, once each body ended or was cancelled', async () => {
    const controller = new AbortController();
    for (let i = 0; i < 20; i++) {
      await (await nodeFetch(`${base}/echo`, { method: 'POST', body: 'x', signal: controller.signal })).text();
      await (await nodeFetch(`${base}/drip`, { signal: controller.signal })).body!.cancel();
    }
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('a refused connection and a connection lost mid-body fail as fetch fails', async () => {
    const failures = [];
    for (const [, f] of both) {
      const refused = (await caught(f('http://127.0.0.1:1/x'))) as TypeError;
      const reader = (await f(`${base}/cut`)).body!.getReader();
      await reader.read();
      const cut = (await caught((async () => { for (;;) if ((await reader.read()).done) return; })())) as TypeError;
      failures.push({ refused: [refused.constructor.name, refused.message, refused.cause !== undefined], cut: [cut.constructor.name, cut.message, cut.cause !== undefined] });
    }
    expect(failures[1]).toEqual(failures[0]);
    expect(failures[1]).toEqual({ refused: ['TypeError', 'fetch failed', true], cut: ['TypeError', 'terminated', true] });
  });

  it('reads the body only as fast as it is consumed, and every byte arrives', async () => {
    const response = await nodeFetch(`${base}/big`);
    await new Promise((r) => setTimeout(r, 300));
    expect(big.done).toBe(false);
    let bytes = 0;
    const reader = response.body!.getReader();
    for (let r = await reader.read(); !r.done; r = await reader.read()) bytes += r.value.byteLength;
    expect([bytes, big.done]).toEqual([16 * 2 ** 20, true]);
  });

  it('keeps the connection alive between calls', async () => {
    const fresh = createNodeHttpFetch();
    sockets.clear();
    for (let i = 0; i < 3; i++) await (await fresh(`${base}/echo`, { method: 'POST', body: 'x' })).text();
    expect(sockets.size).toBe(1);
  });

  it("closes an idle connection 1 s before the server's keep-alive timeout, as fetch does", async () => {
    const fresh = createNodeHttpFetch();
    const closed: number[] = [];
    const short = createServer((req, res) => void req.resume().on('end', () => res.end('ok')));
    // Node's server sends `Keep-Alive: timeout=2` and would close the idle socket after 2.5 s.
    short.keepAliveTimeout = 2500;
    short.on('connection', (socket) => socket.on('close', () => closed.push(Date.now())));
    await new Promise<void>((resolve) => short.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(short.address() as AddressInfo).port}/`;
      await (await fresh(url, { method: 'POST', body: 'x' })).text();
      await new Promise((r) => setTimeout(r, 300));
      expect(closed).toHaveLength(0);
      await new Promise((r) => setTimeout(r, 1500));
      expect(closed).toHaveLength(1);
      await (await fresh(url, { method: 'POST', body: 'y' })).text();
    } finally {
      short.closeAllConnections();
      short.close();
    }
  });

  it('hands calls it does not make itself to the global fetch', async () => {
    const spy = vi.spyOn(globalThis, 'fetch');
    try {
      await (await nodeFetch(new Request(`${base}/echo`, { method: 'POST', body: 'r' }))).text();
      const stream = new Blob(['s']).stream();
      await (await nodeFetch(`${base}/echo`, { method: 'POST', body: stream, duplex: 'half' } as RequestInit)).text();
      expect(spy).toHaveBeenCalledTimes(2);
    } finally {
      spy.mockRestore();
    }
  });
});

describe('@ai-sdk/anthropic on createNodeHttpFetch', () => {
  const prompt = [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'hi' }] }];
  const parts = async (f: typeof fetch, path: string) => {
    const model = createAnthropic({ baseURL: `${base}${path}`, apiKey: 'k', fetch: f })('claude-sonnet-4-5');
    try {
      const { stream } = await model.doStream({ prompt, maxOutputTokens: 100 });
      const out = [];
      const reader = stream.getReader();
      for (let r = await reader.read(); !r.done; r = await reader.read()) out.push(r.value);
      return out;
    } catch (error) {
      const e = error as { name: string; statusCode?: number; isRetryable?: boolean; responseBody?: string; responseHeaders?: Record<string, string> };
      return { name: e.name, statusCode: e.statusCode, isRetryable: e.isRetryable, responseBody: e.responseBody, retryAfter: e.responseHeaders?.['retry-after'] };
    }
  };

  it('streams the same parts and fails with the same error as on the global fetch', async () => {
    const onFetch = await parts(globalThis.fetch, '/anthropic');
    expect(await parts(nodeFetch, '/anthropic')).toEqual(onFetch);
    expect(JSON.stringify(onFetch)).toContain('Hello');
    const failed = await parts(globalThis.fetch, '/anthropic-bad');
    expect(await parts(nodeFetch, '/anthropic-bad')).toEqual(failed);
    expect(failed).toMatchObject({ statusCode: 429, isRetryable: true, retryAfter: '3' });
  });
});
