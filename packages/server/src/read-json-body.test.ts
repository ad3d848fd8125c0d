import { connect } from 'node:net';
import { ChatwireError } from '@chatwire/storage';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { incomingMessageToRequest } from './adapters/node-bridge/incoming-message-to-request.js';
import { serveNode } from './adapters/testing/serve-node.js';
import { DEFAULT_BODY_TIMEOUT_MS, readJsonBody } from './read-json-body.js';

const encoder = new TextEncoder();

/** A body stream that yields `parts` and then either ends or stays open; records its cancel reason. */
function bodyOf(parts: string[], { end = true } = {}): { stream: ReadableStream<Uint8Array>; cancelled: unknown[] } {
  const cancelled: unknown[] = [];
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const part of parts) controller.enqueue(encoder.encode(part));
      if (end) controller.close();
    },
    cancel(reason) {
      cancelled.push(reason);
    },
  });
  return { stream, cancelled };
}

function post(body: ReadableStream<Uint8Array> | string | null, headers: Record<string, string> = {}): Request {
  const init: RequestInit & { duplex?: 'half' } = { method: 'POST', headers, body };
  if (body instanceof ReadableStream) init.duplex = 'half';
  return new Request('http://localhost/api/ai/chats', init);
}

async function rejection(promise: Promise<unknown>): Promise<ChatwireError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!ChatwireError.is(error)) throw new Error(`expected a ChatwireError, got ${String(error)}`);
  return error;
}

afterEach(() => {
  vi.useRealTimers();
});

describe('readJsonBody', () => {
  it('parses JSON and treats an empty or blank body as undefined', async () => {
    expect(await readJsonBody(post('{"a":[1,2]}'), 100)).toEqual({ a: [1, 2] });
    expect(await readJsonBody(post(null), 100)).toBeUndefined();
    expect(await readJsonBody(post(' \n '), 100)).toBeUndefined();
  });

  it('answers invalid JSON with VALIDATION', async () => {
    const error = await rejection(readJsonBody(post('{nope'), 100));
    expect(error).toMatchObject({ code: 'VALIDATION', message: 'Request body is not valid JSON' });
  });

  it('rejects a declared Content-Length over the limit before reading', async () => {
    const body = bodyOf(['x'], { end: false });
    const error = await rejection(readJsonBody(post(body.stream, { 'content-length': '101' }), 100));
    expect(error).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', message: 'Request body is larger than 100 bytes' });
  });

  it('stops reading and cancels the stream once the body passes the limit', async () => {
    const body = bodyOf(['x'.repeat(60), 'y'.repeat(60)], { end: false });
    const error = await rejection(readJsonBody(post(body.stream), 100));
    expect(error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(body.cancelled).toEqual([error]);
  });

  it('answers a body whose stream fails before its end (the client went away) with VALIDATION on the body', async () => {
    const aborted = Object.assign(new Error('aborted'), { code: 'ECONNRESET' });
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encoder.encode('{"title":'));
        controller.error(aborted);
      },
    });
    const error = await rejection(readJsonBody(post(stream), 100));
    expect(error).toMatchObject({ code: 'VALIDATION', details: { field: 'body' }, cause: aborted });
    expect(error.message).toBe('Request body ended before it was complete (the connection closed)');
  });

  describe('time limit', () => {
    it('rejects with TIMEOUT and cancels the stream when the whole body takes longer than timeoutMs', async () => {
      vi.useFakeTimers();
      const body = bodyOf(['{"a":'], { end: false });
      const reading = rejection(readJsonBody(post(body.stream), 100, { timeoutMs: 500 }));
      await vi.advanceTimersByTimeAsync(499);
      expect(body.cancelled).toEqual([]);
      await vi.advanceTimersByTimeAsync(1);
      const error = await reading;
      expect(error).toMatchObject({ code: 'TIMEOUT', message: 'Request body took longer than 500 ms' });
      expect(body.cancelled).toEqual([error]);
    });

    it('counts the whole body, not the gap between chunks', async () => {
      vi.useFakeTimers();
      let controller!: ReadableStreamDefaultController<Uint8Array>;
      const stream = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
      const reading = rejection(readJsonBody(post(stream), 100, { timeoutMs: 500 }));
      for (let i = 0; i < 3; i++) {
        await vi.advanceTimersByTimeAsync(150); // one byte every 150 ms: never idle for 500 ms
        controller.enqueue(encoder.encode(' '));
      }
      await vi.advanceTimersByTimeAsync(50);
      expect((await reading).code).toBe('TIMEOUT');
    });

    it('defaults to 30 s and leaves no timer behind once the body is read', async () => {
      vi.useFakeTimers();
      const body = bodyOf(['{"a":1}'], { end: false });
      const reading = rejection(readJsonBody(post(body.stream), 100));
      await vi.advanceTimersByTimeAsync(DEFAULT_BODY_TIMEOUT_MS - 1);
      expect(body.cancelled).toEqual([]);
      await vi.advanceTimersByTimeAsync(1);
      expect((await reading).message).toBe('Request body took longer than 30000 ms');

      expect(await readJsonBody(post('{"b":2}'), 100)).toEqual({ b: 2 });
      expect(vi.getTimerCount()).toBe(0);
    });

    it('is off with timeoutMs 0', async () => {
      vi.useFakeTimers();
      let controller!: ReadableStreamDefaultController<Uint8Array>;
      const stream = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
      const reading = readJsonBody(post(stream), 100, { timeoutMs: 0 });
      expect(vi.getTimerCount()).toBe(0);
      await vi.advanceTimersByTimeAsync(10 * DEFAULT_BODY_TIMEOUT_MS);
      controller.enqueue(encoder.encode('[1]'));
      controller.close();
      expect(await reading).toEqual([1]);
    });

    it('treats a limit beyond the largest timer delay as a long one, not an immediate one', async () => {
      vi.useFakeTimers();
      const body = bodyOf(['[2]'], { end: false });
      const reading = rejection(readJsonBody(post(body.stream), 100, { timeoutMs: 2 ** 40 }));
      await vi.advanceTimersByTimeAsync(24 * 3600 * 1000);
      expect(body.cancelled).toEqual([]);
      await vi.advanceTimersByTimeAsync(2 ** 31);
      expect((await reading).code).toBe('TIMEOUT');
    });

    it('cuts a body that trickles over a real socket', async () => {
      let outcome: Promise<ChatwireError> | undefined;
      const server = await serveNode((req, res) => {
        outcome = rejection(readJsonBody(incomingMessageToRequest(req, res), 1000, { timeoutMs: 300 }));
        void outcome.finally(() => res.writeHead(204).end());
      });
      const socket = connect(Number(new URL(server.url).port), '127.0.0.1');
      socket.on('error', () => undefined);
      socket.write('POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{');
      const trickle = setInterval(() => socket.write(' '), 50);
      try {
        await vi.waitFor(() => expect(outcome).toBeDefined());
        expect(await outcome).toMatchObject({ code: 'TIMEOUT', message: 'Request body took longer than 300 ms' });
      } finally {
        clearInterval(trickle);
        socket.destroy();
        await server.close();
      }
    });
  });
});
