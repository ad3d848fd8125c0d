import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { streamText, tool } from 'ai';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createProvider } from './create-provider.js';
import type { ProviderName } from './model-types.js';
import { createNodeHttpFetch, createProviderFetch } from './node-http-fetch.js';
import {
  anthropicText,
  anthropicToolCall,
  chatCompletionsText,
  chatCompletionsToolCall,
  responsesText,
  responsesToolCall,
} from './testing/provider-wire-fixtures.js';

const usage = { input: 12, output: 7, cached: 2, reasoning: 0 };
const WIRE: Record<ProviderName, { path: string; text: () => Response; tool: () => Response }> = {
  provider_a: {
    path: '/a/messages',
    text: () => anthropicText('alpha', ['Hel', 'lo ', 'wörld'], usage),
    tool: () => anthropicToolCall('alpha', { id: 'toolu_1', name: 'lookup', input: { q: 'x' } }, usage),
  },
  provider_b: {
    path: '/b/responses',
    text: () => responsesText('beta', ['Hel', 'lo ', 'wörld'], usage),
    tool: () => responsesToolCall('beta', { callId: 'call_1', name: 'lookup', arguments: '{"q":"x"}' }, usage),
  },
  provider_c: {
    path: '/c/chat/completions',
    text: () => chatCompletionsText('gamma', ['Hel', 'lo ', 'wörld'], usage),
    tool: () => chatCompletionsToolCall('gamma', { id: 'call_1', name: 'lookup', arguments: '{"q":"x"}' }, usage),
  },
};
const MODEL: Record<ProviderName, string> = { provider_a: 'alpha-sonnet', provider_b: 'beta', provider_c: 'gamma' };

// A real loopback server writes each fixture's bytes in 7-byte network chunks (events and characters split).
let kind: 'text' | 'tool' | 'error' = 'text';
let server: Server;
let base = '';
beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    const wire = Object.values(WIRE).find((w) => w.path === req.url);
    if (!wire || kind === 'error') {
      res.writeHead(400, { 'content-type': 'application/json' });
      return void res.end(JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: 'bad request' } }));
    }
    void (async () => {
      const bytes = new Uint8Array(await wire[kind === 'tool' ? 'tool' : 'text']().arrayBuffer());
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (let at = 0; at < bytes.length; at += 7) {
        res.write(bytes.subarray(at, at + 7));
        await new Promise((r) => setImmediate(r));
      }
      res.end();
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

async function run(provider: ProviderName, fetch: typeof globalThis.fetch) {
  const baseURL = `${base}${WIRE[provider].path.slice(0, 2)}`;
  const model = createProvider({ baseURL, apiKey: 'key' }, provider, { fetch })(MODEL[provider]);
  const parts: unknown[] = [];
  const result = streamText({
    model,
    prompt: 'hi',
    maxRetries: 0,
    tools: { lookup: tool({ inputSchema: z.object({ q: z.string() }) }) },
    onError: ({ error }) => void parts.push({ error: (error as { statusCode?: number }).statusCode ?? String(error) }),
  });
  for await (const part of result.fullStream) parts.push(part);
  return JSON.parse(JSON.stringify(parts, (key, value) => (key === 'timestamp' || key === 'request' || key === 'date' ? undefined : value))) as unknown[];
}

describe("chatwire's provider calls over createNodeHttpFetch", () => {
  for (const provider of Object.keys(WIRE) as ProviderName[]) {
    for (const which of ['text', 'tool', 'error'] as const) {
      it(`${provider}: the same stream parts as on the global fetch (${which})`, async () => {
        kind = which;
        const onFetch = await run(provider, (input, init) => globalThis.fetch(input, init));
        expect(await run(provider, createNodeHttpFetch())).toEqual(onFetch);
        expect(JSON.stringify(onFetch)).toContain(which === 'error' ? '"error":400' : which === 'tool' ? 'lookup' : 'wörld');
      });
    }
  }
});

describe('createProviderFetch', () => {
  it('calls over node:http while the global fetch is untouched, and through a replaced global fetch', async () => {
    kind = 'text';
    const providerFetch = createProviderFetch();
    const spy = vi.spyOn(globalThis, 'fetch');
    try {
      // The spy replaced globalThis.fetch after createProviderFetch: its calls go through the spy.
      await (await providerFetch(`${base}/a/messages`, { method: 'POST', body: '{}' })).text();
      expect(spy).toHaveBeenCalledTimes(1);
      // Created while the spy is the global fetch: the spy is "untouched", calls go over node:http.
      await (await createProviderFetch()(`${base}/a/messages`, { method: 'POST', body: '{}' })).text();
      expect(spy).toHaveBeenCalledTimes(1);
    } finally {
      spy.mockRestore();
    }
  });
});
