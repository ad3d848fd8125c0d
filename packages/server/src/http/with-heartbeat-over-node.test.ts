import { ChatwireError } from '@chatwire/storage';
import { afterEach, describe, expect, it } from 'vitest';
import { heartbeatSseServers } from '../adapters/testing/heartbeat-sse-servers.js';

const MiB = 1024 * 1024;
const EVENT = new TextEncoder().encode(`data: ${'x'.repeat(16 * 1024)}\n\n`);

/** An SSE source that never ends: one 16 KiB event per pull; counts what was taken from it. */
function endlessEvents(): { stream: ReadableStream<Uint8Array>; pulledBytes: () => number; cancelled: Promise<unknown> } {
  let pulledBytes = 0;
  let onCancel!: (reason: unknown) => void;
  const cancelled = new Promise<unknown>((resolve) => (onCancel = resolve));
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        pulledBytes += EVENT.byteLength;
        controller.enqueue(EVENT);
      },
      cancel: (reason) => onCancel(reason),
    },
    { highWaterMark: 0 },
  );
  return { stream, pulledBytes: () => pulledBytes, cancelled };
}

const sse = heartbeatSseServers();
const serveSse = sse.serve;
const get = sse.get;
afterEach(() => sse.closeAll());

describe('withHeartbeat behind the node bridge', () => {
  it('drops a client that stops reading, cancels the source and keeps what was produced bounded', async () => {
    const source = endlessEvents();
    const errors: unknown[] = [];
    let idle = 0;
    const served = await serveSse(() => source.stream, { clientIdleTimeoutMs: 300, onIdle: () => void (idle += 1) }, errors);
    const client = get(served.port);
    let received = 0;
    client.on('data', (chunk: Buffer) => {
      received += chunk.byteLength;
      if (received === chunk.byteLength) client.pause(); // reads nothing more: the kernel buffers fill up
    });

    const reason = await source.cancelled;
    expect(ChatwireError.is(reason, 'TIMEOUT')).toBe(true);
    expect(idle).toBe(1);
    const serverSide = served.sockets[0]!;
    if (!serverSide.destroyed) await new Promise((resolve) => serverSide.once('close', resolve));
    expect(serverSide.destroyed).toBe(true);
    expect(errors).toEqual([reason]);

    // Whatever the kernel buffers took still reaches the client; what was pulled from the source and never
    // reached the socket was held by the process: that part must stay small.
    const ended = new Promise((resolve) => client.once('close', resolve));
    client.resume();
    await ended;
    expect(source.pulledBytes() - received).toBeLessThan(MiB);
  });

  it('keeps a quiet stream alive with comments while the client reads', async () => {
    const quiet = new ReadableStream<Uint8Array>({}); // produces nothing, never ends
    const served = await serveSse(() => quiet, { heartbeatMs: 50, clientIdleTimeoutMs: 200 }, []);
    const client = get(served.port);
    const text = await sse.readUntil(client, (read) => read.split(': keep-alive\n\n').length > 4);
    expect(text).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(served.sockets[0]!.destroyed).toBe(false); // a reading client is never dropped
  });
});
