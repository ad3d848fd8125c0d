import { createMemoryBlobStore } from '@chatwire/storage';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { handleNodeRequest } from './adapters/node-bridge/handle-node-request.js';
import { serveNode } from './adapters/testing/serve-node.js';
import { chatFixture, signToken } from './test-support/chat-fixture.js';
import { scriptedModel, textStep } from './test-support/scripted-model.js';

const servers: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/**
 * A chat handler behind the node adapter's bridge (what `toNodeListener` runs for every request), with the
 * errors its `onError` and the adapter's receive, and each request's handling to wait for.
 */
async function serve() {
  const f = chatFixture(scriptedModel([textStep('ok')]).model, { handler: { attachments: { blobs: createMemoryBlobStore() } } as never });
  const adapterErrors: unknown[] = [];
  const handled: Array<Promise<void>> = [];
  const server = await serveNode((req, res) => {
    handled.push(handleNodeRequest(f.handler, req, res, { url: req.url!, onError: (error) => void adapterErrors.push(error) }));
  });
  servers.push(server);
  return { f, url: server.url, adapterErrors, handled };
}

/** Opens a connection and writes the request line, the headers and a part of the body (no more). */
function sendPartly(url: string, head: string, part: string): Socket {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  socket.on('error', () => undefined);
  socket.write(`${head}\r\n\r\n${part}`, 'latin1');
  return socket;
}

describe('a client that goes away mid-body (node adapter)', () => {
  it('is not reported: a JSON body cut short, a malformed chunked body, an upload cut short', async () => {
    const { f, url, adapterErrors, handled } = await serve();
    const chatId = await f.createChat('alice');
    const auth = `Host: localhost\r\nAuthorization: Bearer ${await signToken('alice')}`;
    const json = 'Content-Type: application/json\r\nContent-Length: 100';
    const cases: Array<[string, string, string]> = [
      [`PUT /api/ai/chats/${chatId}/messages/msg_1/feedback HTTP/1.1`, json, '{"rating":'],
      ['POST /api/ai/chats HTTP/1.1', json, '{"title":"'],
      ['POST /api/ai/chats HTTP/1.1', 'Content-Type: application/json\r\nTransfer-Encoding: chunked', 'a\r\n{"title":"\r\nzz\r\n'],
      ['POST /api/ai/attachments?filename=a.txt HTTP/1.1', 'Content-Type: text/plain\r\nContent-Length: 100', 'hello ther'],
    ];
    for (const [line, headers, part] of cases) {
      const socket = sendPartly(url, `${line}\r\n${auth}\r\n${headers}`, part);
      await expect.poll(() => handled.length).toBe(1); // the server is reading the body
      socket.destroy();
      await handled.pop(); // the server has answered (or given up on) the request
    }
    expect(f.errors).toEqual([]);
    expect(adapterErrors).toEqual([]);
    expect(await f.rows('ai-attachments')).toEqual([]);
  });
});
