import type { Socket } from 'node:net';
import { ChatwireError } from '@chatwire/storage';
import { afterEach, describe, expect, it } from 'vitest';
import { heartbeatSseServers } from '../testing/heartbeat-sse-servers.js';
import { PUSH_SOURCE, type ByteSink, type PushStream } from '../../http/direct-body.js';
import { withHeartbeat } from '../../http/with-heartbeat.js';

const encode = (text: string) => new TextEncoder().encode(text);

/** A body that offers its bytes as calls, as a turn's own response does; its web stream fails the test if read. */
function pushBody(): { stream: PushStream; write(text: string): void; end(): void; cancelled: Promise<unknown>; webReads: () => number } {
  let sink: ByteSink | null = null;
  const early: string[] = [];
  let ended = false;
  let webReads = 0;
  let onCancel!: (reason: unknown) => void;
  const cancelled = new Promise<unknown>((resolve) => (onCancel = resolve));
  const stream: PushStream = new ReadableStream<Uint8Array>({ pull: () => void (webReads += 1) }, { highWaterMark: 0 });
  stream[PUSH_SOURCE] = (s) => {
    sink = s;
    for (const text of early) s.write(encode(text));
    if (ended) s.end();
    return { cancel: (reason) => onCancel(reason) };
  };
  return {
    stream,
    write: (text) => (sink ? sink.write(encode(text)) : void early.push(text)),
    end: () => ((ended = true), sink?.end()),
    cancelled,
    webReads: () => webReads,
  };
}

const sse = heartbeatSseServers();
const serve = sse.serve;
const get = sse.get;
afterEach(() => sse.closeAll());

function readAll(socket: Socket): Promise<string> {
  socket.setEncoding('latin1');
  let text = '';
  socket.on('data', (chunk: string) => (text += chunk));
  return new Promise((resolve) => socket.once('close', () => resolve(text)));
}

/** The chunked body's payload (chunk sizes removed). */
function dechunk(raw: string): string {
  let rest = raw.slice(raw.indexOf('\r\n\r\n') + 4);
  let out = '';
  for (;;) {
    const line = rest.indexOf('\r\n');
    const size = parseInt(rest.slice(0, line), 16);
    if (!(size > 0)) return out;
    out += rest.slice(line + 2, line + 2 + size);
    rest = rest.slice(line + 2 + size + 2);
  }
}

describe('a body taken as calls behind the node bridge (writeDirectBody)', () => {
  it('writes the bytes produced before and after the answer started, in order, ends with the body, and never reads its web stream', async () => {
    const body = pushBody();
    body.write('data: 1\n\n');
    const served = await serve(() => body.stream, { heartbeatMs: 0 }, []);
    const client = get(served.port);
    const all = readAll(client.on('data', () => client.end()));
    await new Promise((resolve) => client.once('data', resolve));
    body.write('data: 2\n\n');
    body.write('data: 3\n\n');
    body.end();
    const raw = await all;
    expect(raw).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(raw).toMatch(/transfer-encoding: chunked/i);
    expect(dechunk(raw)).toBe('data: 1\n\ndata: 2\n\ndata: 3\n\n');
    expect(body.webReads()).toBe(0);
  });

  it('a body that ended before the answer started is written whole and ended', async () => {
    const body = pushBody();
    body.write('data: only\n\n');
    body.end();
    const served = await serve(() => body.stream, {}, []);
    const client = get(served.port);
    client.end();
    expect(dechunk(await readAll(client))).toBe('data: only\n\n');
  });

  it('keeps a quiet stream alive with comments between events while the client reads', async () => {
    const body = pushBody();
    body.write('data: 1\n\n');
    const served = await serve(() => body.stream, { heartbeatMs: 30, clientIdleTimeoutMs: 200 }, []);
    const client = get(served.port);
    const text = await sse.readUntil(client, (read) => read.split(': keep-alive\n\n').length > 3);
    expect(text.indexOf('data: 1\n\n')).toBeLessThan(text.indexOf(': keep-alive\n\n'));
    expect(served.sockets[0]!.destroyed).toBe(false);
  });

  it('sends no comment in the middle of an event', async () => {
    const body = pushBody();
    body.write('data: half');
    const served = await serve(() => body.stream, { heartbeatMs: 10 }, []);
    const client = get(served.port);
    const all = readAll(client);
    await new Promise((resolve) => setTimeout(resolve, 80));
    body.write(' done\n\n');
    await new Promise((resolve) => setTimeout(resolve, 40));
    body.end();
    client.end();
    const text = dechunk(await all);
    expect(text.startsWith('data: half done\n\n')).toBe(true);
    expect(text.replaceAll(': keep-alive\n\n', '')).toBe('data: half done\n\n');
  });

  it('cancels the body with an AbortError when the client goes away', async () => {
    const body = pushBody();
    const errors: unknown[] = [];
    const served = await serve(() => body.stream, {}, errors);
    const client = get(served.port);
    body.write('data: 1\n\n');
    await new Promise((resolve) => client.once('data', resolve));
    client.destroy();
    const reason = await body.cancelled;
    expect((reason as DOMException).name).toBe('AbortError');
    body.write('data: late\n\n'); // ignored
    expect(errors).toEqual([]);
  });

  it('drops a client that stops reading: the body is cancelled with TIMEOUT, onIdle runs, the connection goes, the error is reported', async () => {
    const body = pushBody();
    const errors: unknown[] = [];
    let idle = 0;
    const served = await serve(() => body.stream, { clientIdleTimeoutMs: 200, onIdle: () => void (idle += 1) }, errors);
    const client = get(served.port);
    client.once('data', () => client.pause()); // reads nothing more: the kernel buffers fill up
    const event = `data: ${'x'.repeat(16 * 1024)}\n\n`;
    let cancelledYet = false;
    void body.cancelled.then(() => (cancelledYet = true));
    body.write('data: first\n\n');
    while (!cancelledYet) {
      body.write(event);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const reason = await body.cancelled;
    expect(ChatwireError.is(reason, 'TIMEOUT')).toBe(true);
    expect(idle).toBe(1);
    const serverSide = served.sockets[0]!;
    if (!serverSide.destroyed) await new Promise((resolve) => serverSide.once('close', resolve));
    expect(serverSide.destroyed).toBe(true);
    expect(errors).toEqual([reason]);
  });

  it('a body whose web stream was read first is written from that stream', async () => {
    const body = pushBody();
    const wrapped = withHeartbeat(body.stream, {});
    const reader = wrapped.getReader();
    void reader.read();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(body.webReads()).toBe(1);
  });
});
