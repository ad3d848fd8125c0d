import { createServer, type ServerResponse } from 'node:http';
import { getEventListeners } from 'node:events';
import type { Socket } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMcpHttpFetch } from './mcp-http-fetch.js';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  vi.unstubAllGlobals();
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

/** A loopback server whose answers `answer` writes; the response objects are kept for the test. */
async function server(answer: (path: string, response: ServerResponse) => void): Promise<string> {
  const sockets = new Set<Socket>();
  const http = createServer((request, response) => {
    request.resume();
    request.once('end', () => answer(request.url ?? '', response));
  });
  http.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  cleanups.push(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => http.close(resolve));
  });
  return `http://127.0.0.1:${(http.address() as { port: number }).port}`;
}

const post = (signal?: AbortSignal): RequestInit => ({ method: 'POST', body: '{"jsonrpc":"2.0"}', headers: { 'content-type': 'application/json' }, redirect: 'manual', ...(signal ? { signal } : {}) });

describe('the fetch of the MCP transport', () => {
  it('answers as the global fetch does, and leaves no abort listener on the session\'s signal once a body ended', async () => {
    const base = await server((_, response) => response.writeHead(200, { 'content-type': 'text/event-stream', 'mcp-session-id': 's-1' }).end('data: {"a":1}\n\n'));
    const mcpFetch = createMcpHttpFetch();
    const session = new AbortController();
    for (let i = 0; i < 30; i++) {
      const [ours, theirs] = await Promise.all([mcpFetch(new URL(`${base}/mcp`), post(session.signal)), fetch(`${base}/mcp`, post())]);
      expect([ours.status, ours.headers.get('mcp-session-id'), ours.headers.get('content-type'), await ours.text()]).toEqual([
        theirs.status,
        theirs.headers.get('mcp-session-id'),
        theirs.headers.get('content-type'),
        await theirs.text(),
      ]);
    }
    expect(getEventListeners(session.signal, 'abort')).toHaveLength(0);
  });

  it('returns a redirect as it is, for the SDK to follow within the origin or refuse', async () => {
    const base = await server((_, response) => response.writeHead(307, { location: 'http://elsewhere.example/mcp' }).end());
    const response = await createMcpHttpFetch()(new URL(`${base}/mcp`), post());
    expect([response.status, response.headers.get('location')]).toEqual([307, 'http://elsewhere.example/mcp']);
  });

  it('an abort rejects the call, or errors a body being read, with the signal\'s reason', async () => {
    const pending: ServerResponse[] = [];
    const base = await server((path, response) => {
      if (path === '/streams') response.writeHead(200, { 'content-type': 'text/event-stream' }).write(': open\n\n');
      pending.push(response);
    });
    const mcpFetch = createMcpHttpFetch();
    const early = new AbortController();
    const call = mcpFetch(new URL(`${base}/hangs`), post(early.signal));
    await vi.waitFor(() => expect(pending).toHaveLength(1));
    early.abort(new Error('the turn ended'));
    await expect(call).rejects.toThrow('the turn ended');

    const late = new AbortController();
    const response = await mcpFetch(new URL(`${base}/streams`), post(late.signal));
    const reader = response.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe(': open\n\n');
    late.abort(new Error('closed'));
    await expect(reader.read()).rejects.toThrow('closed');
    expect(getEventListeners(late.signal, 'abort')).toHaveLength(0);
  });

  it('a refused connection is "fetch failed" and one lost mid-body "terminated", as with fetch', async () => {
    const base = await server((_, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' }).write('data: 1\n\n');
      setTimeout(() => response.socket?.destroy(), 20);
    });
    const mcpFetch = createMcpHttpFetch();
    const cut = await mcpFetch(new URL(`${base}/mcp`), post());
    await expect(cut.text()).rejects.toMatchObject({ name: 'TypeError', message: 'terminated' });
    await cleanups.pop()!();
    await expect(mcpFetch(new URL(`${base}/mcp`), post())).rejects.toMatchObject({ name: 'TypeError', message: 'fetch failed' });
  });

  it('hands everything to the global fetch once something replaced it (a mock, a proxy, an instrumentation)', async () => {
    const mcpFetch = createMcpHttpFetch();
    const replaced = vi.fn(async () => new Response('from the replacement'));
    vi.stubGlobal('fetch', replaced);
    const response = await mcpFetch(new URL('http://127.0.0.1:1/mcp'), post());
    expect(await response.text()).toBe('from the replacement');
    expect(replaced).toHaveBeenCalledOnce();
  });
});
