import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { createMemoryBlobStore } from '@chatwire/storage';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { toNodeListener } from './adapters/node.js';
import { chatFixture, signToken } from './test-support/chat-fixture.js';
import { scriptedModel, textStep } from './test-support/scripted-model.js';
import { pngBytes } from './test-support/sample-files.js';

const LIMIT = 1024 * 1024;
const blobs = createMemoryBlobStore();
const f = chatFixture(scriptedModel([textStep('ok')]).model, { handler: { attachments: { blobs, maxFileBytes: LIMIT } } as never });
let server: Server;
let port: number;

beforeAll(async () => {
  server = createServer(toNodeListener(f.handler));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/**
 * Sends an upload of `total` bytes over a raw socket, as fast as the server takes them, and reads the
 * answer: how many body bytes went out before the server closed the connection.
 */
async function rawUpload(headers: string, total: number, chunked: boolean): Promise<{ answer: string; sent: number; closed: boolean }> {
  const token = await signToken('alice');
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    let sent = 0;
    socket.on('data', (chunk) => (answer += chunk.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve({ answer, sent, closed: true }));
    socket.write(`POST /api/ai/attachments?filename=big.png HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${token}\r\nContent-Type: image/png\r\n${headers}\r\n`);
    const head = pngBytes();
    const piece = Buffer.alloc(64 * 1024, 1);
    const pump = () => {
      while (sent < total && !socket.destroyed) {
        const data = sent === 0 ? head : piece;
        const frame = chunked ? Buffer.concat([Buffer.from(`${data.length.toString(16)}\r\n`), data, Buffer.from('\r\n')]) : data;
        sent += data.length;
        if (!socket.write(frame)) return void socket.once('drain', pump);
      }
    };
    pump();
  });
}

it('an upload past the limit without a Content-Length stops being read at the limit: 413, connection closed, nothing stored', async () => {
  const total = 200 * 1024 * 1024;
  const { answer, sent, closed } = await rawUpload('Transfer-Encoding: chunked\r\n', total, true);
  expect(answer).toMatch(/^HTTP\/1\.1 413 /);
  expect(answer).toMatch(/connection: close/i);
  expect(answer).toContain('"code":"ATTACHMENT_TOO_LARGE"');
  expect(closed).toBe(true);
  // Socket buffers hold a few MiB at most: far from the 200 MiB the client meant to send.
  expect(sent).toBeLessThan(total / 4);
  expect(await f.rows('ai-attachments')).toEqual([]);
  expect(blobs.size).toBe(0);
});

it('a Content-Length past the limit is 413 before any byte of the body is read', async () => {
  const { answer, sent } = await rawUpload(`Content-Length: ${200 * 1024 * 1024}\r\n`, 200 * 1024 * 1024, false);
  expect(answer).toMatch(/^HTTP\/1\.1 413 /);
  expect(answer).toMatch(/connection: close/i);
  expect(sent).toBeLessThan(50 * 1024 * 1024);
  expect(blobs.size).toBe(0);
});
