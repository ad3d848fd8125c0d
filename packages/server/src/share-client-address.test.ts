import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { toNodeListener } from './adapters/node.js';
import { serveNode } from './adapters/testing/serve-node.js';
import type { HttpOptions } from './create-chat-handler.js';
import { chatFixture } from './test-support/chat-fixture.js';
import { scriptedModel } from './test-support/scripted-model.js';

const servers: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** A node:http server over a handler with sharing on (2 reads a minute) and one shared chat. */
async function servedShare(clientAddress?: HttpOptions['clientAddress']) {
  const f = chatFixture(scriptedModel([]).model, {
    handler: { sharing: { readsPerMinute: 2 }, ...(clientAddress ? { clientAddress } : {}) },
  });
  const chatId = await f.createChat('alice', 'Shared');
  const created = (await (await f.request('POST', `/chats/${chatId}/shares`, { body: {} })).json()) as { url: string };
  const server = await serveNode(toNodeListener(f.handler));
  servers.push(server);
  const url = `${server.url}/api/ai/shared/${created.url.split('/').pop()!}`;
  /** The status of a read sent from `localAddress` (a loopback address) with that X-Forwarded-For. */
  return (forwardedFor: string, localAddress = '127.0.0.1') =>
    new Promise<number>((resolve, reject) => {
      const req = httpRequest(url, { localAddress, headers: { 'x-forwarded-for': forwardedFor } }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode!));
      });
      req.on('error', reject);
      req.end();
    });
}

describe('the client address of GET /shared/:token', () => {
  it('is the socket’s peer by default: X-Forwarded-For is not trusted, another peer has its own budget', async () => {
    const read = await servedShare();
    expect(await read('198.51.100.1')).toBe(200);
    expect(await read('198.51.100.2')).toBe(200);
    expect(await read('198.51.100.3')).toBe(429);
    expect(await read('198.51.100.3', '127.0.0.2')).toBe(200);
  });

  it('is what `clientAddress` says when the app trusts its proxy', async () => {
    const read = await servedShare((request) => request.headers.get('x-forwarded-for')?.split(',')[0]?.trim());
    for (const address of ['198.51.100.1', '198.51.100.1', '198.51.100.2']) expect(await read(address)).toBe(200);
    expect(await read('198.51.100.1')).toBe(429);
  });
});
