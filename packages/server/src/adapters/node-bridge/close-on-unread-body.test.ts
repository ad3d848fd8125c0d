import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { ChatwireError } from '@chatwire/storage';
import { afterEach, describe, expect, it } from 'vitest';
import { errorResponse, jsonResponse } from '../../error-response.js';
import { readJsonBody } from '../../read-json-body.js';
import type { ChatHandlerLike } from '../chat-handler-like.js';
import { toNodeListener } from '../node.js';

const MiB = 1024 * 1024;

/**
 * Under `/api/ai`: `/upload` reads a JSON body (1 KiB, 300 ms limits), `/auth` answers 401 without
 * reading, `/crash` throws without reading, `/ignore` answers 200 without reading; errors become
 * chatwire's JSON errors.
 */
function createUploadHandler(): ChatHandlerLike {
  const basePath = '/api/ai';
  const matches = (pathname: string): boolean => pathname.startsWith(`${basePath}/`);
  const handle = async (request: Request): Promise<Response> => {
    const { pathname } = new URL(request.url);
    try {
      if (pathname === '/api/ai/auth') throw new ChatwireError('UNAUTHORIZED', 'Missing or invalid bearer token');
      if (pathname === '/api/ai/crash') throw new Error('handler exploded');
      if (pathname === '/api/ai/ignore') return jsonResponse(200, { ignored: true });
      return jsonResponse(200, { body: await readJsonBody(request, 1024, { timeoutMs: 300 }) });
    } catch (error) {
      if (!ChatwireError.is(error)) throw error;
      return errorResponse(error, () => undefined);
    }
  };
  return Object.assign(handle, { basePath, matches });
}

interface Served {
  port: number;
  /** The server side of every accepted connection. */
  sockets: Socket[];
}

const servers: Server[] = [];
const clients: Socket[] = [];
afterEach(async () => {
  clients.splice(0).forEach((socket) => socket.destroy());
  await Promise.all(
    servers.splice(0).map(
      (server) =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    ),
  );
});

async function serve(): Promise<Served> {
  const sockets: Socket[] = [];
  const server = createServer(toNodeListener(createUploadHandler(), { onError: () => undefined }));
  server.on('connection', (socket) => sockets.push(socket));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, sockets };
}

interface RawClient {
  socket: Socket;
  /** Everything received so far. */
  received(): string;
  /** Resolves with everything received once the server closed the connection. */
  closed: Promise<string>;
}

function rawClient(port: number): RawClient {
  const socket = connect(port, '127.0.0.1');
  clients.push(socket);
  let text = '';
  socket.setEncoding('latin1');
  socket.on('data', (chunk: string) => void (text += chunk));
  socket.on('error', () => undefined); // writing into a closed connection: expected here
  const closed = new Promise<string>((resolve) => socket.once('close', () => resolve(text)));
  return { socket, received: () => text, closed };
}

/** Writes 64 KiB pieces for as long as the connection takes them, honouring backpressure. */
function uploadForever(socket: Socket): void {
  const piece = Buffer.alloc(64 * 1024, 0x78);
  const pump = (): void => {
    while (!socket.destroyed && socket.writable) {
      if (!socket.write(piece)) {
        socket.once('drain', pump);
        return;
      }
    }
  };
  pump();
}

function head(path: string, headers: string): string {
  return `POST /api/ai/${path} HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n${headers}\r\n`;
}

function statusLine(text: string): string {
  return text.slice(0, text.indexOf('\r\n'));
}

function serverBytesRead(served: Served): number {
  return served.sockets.reduce((sum, socket) => sum + socket.bytesRead, 0);
}

describe('closing a connection whose request body is left unread', () => {
  it.each([
    ['413 for a declared 1 GiB body', 'upload', 'Content-Length: 1073741824\r\n', 'HTTP/1.1 413 Payload Too Large', 'PAYLOAD_TOO_LARGE'],
    ['413 for a chunked body over the limit', 'upload', 'Transfer-Encoding: chunked\r\n', 'HTTP/1.1 413 Payload Too Large', 'PAYLOAD_TOO_LARGE'],
    ['401 before reading a 1 GiB body', 'auth', 'Content-Length: 1073741824\r\n', 'HTTP/1.1 401 Unauthorized', 'UNAUTHORIZED'],
    ['500 when the handler throws before reading', 'crash', 'Content-Length: 1073741824\r\n', 'HTTP/1.1 500 Internal Server Error', 'INTERNAL'],
  ])('%s: answers, then closes without reading the upload', async (_name, path, headers, status, code) => {
    const served = await serve();
    const client = rawClient(served.port);
    client.socket.write(head(path, headers));
    // For chunked: one chunk that never ends (its size is 1 GiB), so the body can only grow.
    if (headers.startsWith('Transfer-Encoding')) client.socket.write('40000000\r\n');
    uploadForever(client.socket);

    const text = await client.closed;
    expect(statusLine(text)).toBe(status);
    expect(text.toLowerCase()).toContain('\r\nconnection: close\r\n');
    expect(text).toContain(`"code":"${code}"`);
    expect(serverBytesRead(served)).toBeLessThan(4 * MiB);
  });

  it('cuts a body that trickles one byte at a time with 408 and closes', async () => {
    const served = await serve();
    const client = rawClient(served.port);
    client.socket.write(head('upload', 'Content-Length: 1000\r\n'));
    const trickle = setInterval(() => client.socket.writable && client.socket.write(' '), 50);
    try {
      const text = await client.closed;
      expect(statusLine(text)).toBe('HTTP/1.1 408 Request Timeout');
      expect(text.toLowerCase()).toContain('\r\nconnection: close\r\n');
      expect(text).toContain('{"error":{"code":"TIMEOUT","message":"Request body took longer than 300 ms"}}');
    } finally {
      clearInterval(trickle);
    }
  });

  it('closes after a 200 that ignored a 1 GiB upload, without reading it', async () => {
    const served = await serve();
    const client = rawClient(served.port);
    client.socket.write(head('ignore', 'Content-Length: 1073741824\r\n'));
    uploadForever(client.socket);
    const text = await client.closed;
    expect(statusLine(text)).toBe('HTTP/1.1 200 OK');
    expect(text).toContain('{"ignored":true}');
    expect(serverBytesRead(served)).toBeLessThan(4 * MiB);
  });

  it.each([
    ['an error', 'auth', 'HTTP/1.1 401'],
    ['a 200 that ignored it', 'ignore', 'HTTP/1.1 200'],
  ])('keeps the connection for %s when the whole body had arrived', async (_name, path, status) => {
    const served = await serve();
    const client = rawClient(served.port);
    const body = '{"a":1}';
    const request = head(path, `Content-Length: ${body.length}\r\n`) + body;
    client.socket.write(request);
    await expectEventually(() => client.received().includes(status));
    client.socket.write(request); // the same connection serves a second request
    await expectEventually(() => client.received().split(status).length === 3);
    expect(client.received().toLowerCase()).not.toContain('connection: close');
    expect(client.socket.destroyed).toBe(false);
    expect(served.sockets).toHaveLength(1);
  });

  it('still delivers the error to fetch while it streams an upload', async () => {
    const served = await serve();
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 64 * 1024;
        controller.enqueue(new Uint8Array(64 * 1024).fill(0x20));
      },
    });
    const response = await fetch(`http://127.0.0.1:${served.port}/api/ai/upload`, {
      method: 'POST',
      body,
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ error: { code: 'PAYLOAD_TOO_LARGE', message: 'Request body is larger than 1024 bytes' } });
    expect(pulled).toBeLessThan(64 * MiB);
  });
});

async function expectEventually(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(condition()).toBe(true);
}
