import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { serveNode } from '../testing/serve-node.js';
import { incomingMessageChunks } from './incoming-message-chunks.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const servers: Array<{ close(): Promise<void> }> = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** A server whose every request is handed to `take`, and a way to send it raw request bytes. */
async function serve(take: (req: IncomingMessage) => Promise<unknown>) {
  const results: Array<Promise<unknown>> = [];
  const server = await serveNode((req, res) => {
    const result = take(req);
    results.push(result);
    result.then(
      () => res.end('ok'),
      () => res.end('failed'),
    );
  });
  servers.push(server);
  const port = Number(new URL(server.url).port);
  const open = (): Socket => {
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => undefined);
    sockets.push(socket);
    return socket;
  };
  const next = async (): Promise<Promise<unknown>> => {
    while (results.length === 0) await sleep(2);
    return results.shift()!;
  };
  return { open, next };
}

const head = (length: number) => `POST /up HTTP/1.1\r\nHost: localhost\r\nContent-Length: ${length}\r\n\r\n`;

describe('incomingMessageChunks', () => {
  it('yields every byte in order, on requests that share a keep-alive connection', async () => {
    const { open, next } = await serve(async (req) => {
      const hash = createHash('sha256');
      let size = 0;
      for await (const chunk of incomingMessageChunks(req, 1000)) {
        hash.update(chunk);
        size += chunk.byteLength;
      }
      return { size, sha256: hash.digest('hex') };
    });
    const socket = open();
    for (let i = 0; i < 3; i++) {
      const body = Buffer.concat([Buffer.from([0x89, i]), Buffer.alloc(300_000, 0x61 + i)]);
      socket.write(head(body.length));
      socket.write(body.subarray(0, 2)); // the first bytes on their own, as a client writes a file's head
      socket.write(body.subarray(2));
      expect(await next()).toEqual({ size: body.length, sha256: createHash('sha256').update(body).digest('hex') });
    }
  });

  it('a body that stalls is a TIMEOUT after the idle limit, though the whole body took longer than it', async () => {
    const { open, next } = await serve(async (req) => {
      const seen: number[] = [];
      try {
        for await (const chunk of incomingMessageChunks(req, 60)) seen.push(chunk[0]!);
      } catch (error) {
        return { seen, error };
      }
      return { seen };
    });
    const socket = open();
    socket.write(head(10));
    for (let i = 0; i < 4; i++) {
      socket.write(Buffer.from([i]));
      await sleep(30); // 4 x 30 ms in all: longer than the limit, never idle for it
    }
    const result = (await next()) as { seen: number[]; error?: { code: string } };
    expect(result.seen).toEqual([0, 1, 2, 3]);
    expect(result.error).toMatchObject({ code: 'TIMEOUT' });
  });

  it("the consumer's own time does not count as the client's idleness", async () => {
    const { open, next } = await serve(async (req) => {
      let size = 0;
      for await (const chunk of incomingMessageChunks(req, 30)) {
        size += chunk.byteLength;
        await sleep(80); // a slow store
      }
      return size;
    });
    const socket = open();
    socket.write(head(3));
    for (let i = 0; i < 3; i++) {
      socket.write(Buffer.from([i]));
      await sleep(5);
    }
    expect(await next()).toBe(3);
  });

  it('stopping early stops reading: the rest of the body stays on the socket', async () => {
    let request: IncomingMessage | undefined;
    const { open, next } = await serve(async (req) => {
      request = req;
      for await (const chunk of incomingMessageChunks(req, 1000)) if (chunk.byteLength > 0) break;
      return undefined;
    });
    const socket = open();
    const total = 64 * 1024 * 1024;
    socket.write(head(total));
    let sent = 0;
    const piece = Buffer.alloc(256 * 1024, 1);
    while (sent < total && socket.write(piece)) sent += piece.length;
    await next();
    await sleep(100);
    const read = request!.socket.bytesRead;
    await sleep(100);
    expect(request!.socket.bytesRead).toBe(read); // nothing more is taken off the socket
    expect(read).toBeLessThan(total / 4);
    expect(request!.complete).toBe(false);
  });

  it('the client going away mid-body ends the chunks with a VALIDATION error on the body (cause: Node\'s "aborted"), not a hang or a short body', async () => {
    const { open, next } = await serve(async (req) => {
      let size = 0;
      try {
        for await (const chunk of incomingMessageChunks(req, 5000)) size += chunk.byteLength;
      } catch (error) {
        const { code, details, cause } = error as { code?: string; details?: unknown; cause?: { message?: string } };
        return { size, code, details, cause: cause?.message };
      }
      return { size };
    });
    const socket = open();
    socket.write(head(1000));
    socket.write(Buffer.alloc(100, 1));
    const result = next();
    await sleep(50);
    socket.destroy();
    expect(await (await result)).toEqual({ size: 100, code: 'VALIDATION', details: { field: 'body' }, cause: 'aborted' });
  });
});
