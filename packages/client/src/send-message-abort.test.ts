import { once } from 'node:events';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChatClient } from './create-chat-client.js';

// Real sockets and the real global fetch: abort() must close the TCP request the server is writing to.
let baseUrl: string;
let closed: Promise<void>;
let markClosed: () => void;
const server = createServer((req, res: ServerResponse) => {
  closed = new Promise((resolve) => (markClosed = resolve));
  res.writeHead(200, { 'content-type': 'text/event-stream', 'x-asst-id': 'asst-sock' });
  res.write('data: {"type":"start","messageId":"asst-sock"}\n\ndata: {"type":"text-start","id":"t"}\n\n');
  const timer = setInterval(() => res.write('data: {"type":"text-delta","id":"t","delta":"x"}\n\n'), 10);
  req.socket.on('close', () => {
    clearInterval(timer);
    markClosed();
  });
});

beforeAll(async () => {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/ai`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

describe('sendMessage over a real socket', () => {
  it('abort() closes the connection and ends the actions with abort (client)', async () => {
    const client = createChatClient({ baseUrl, getToken: () => 't' });
    const sent = await client.sendMessage({ chatId: 'c1', content: 'x' });
    expect(sent.assistantMessageId).toBe('asst-sock');
    let deltas = 0;
    let last: unknown;
    for await (const action of sent.actions) {
      last = action;
      if (action.type === 'append-text' && ++deltas === 3) sent.abort();
    }
    expect(last).toEqual({ type: 'abort', origin: 'client' });
    await closed; // resolves only if the server saw the socket close
  });
});
