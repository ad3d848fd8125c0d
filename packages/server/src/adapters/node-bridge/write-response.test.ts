import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { serveNode } from '../testing/serve-node.js';
import { writeResponse } from './write-response.js';

const servers: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** A ServerResponse stand-in whose `write` reports a full buffer until the test emits 'drain'. */
class SlowResponse extends EventEmitter {
  statusCode = 200;
  statusMessage = '';
  headers: Record<string, unknown> = {};
  written: string[] = [];
  destroyed = false;
  writableEnded = false;
  req = { method: 'GET' };
  setHeader(key: string, value: unknown): void {
    this.headers[key] = value;
  }
  flushHeaders(): void {}
  write(chunk: Uint8Array): boolean {
    this.written.push(new TextDecoder().decode(chunk));
    return false;
  }
  end(): void {
    this.writableEnded = true;
  }
  destroy(): void {
    this.destroyed = true;
    this.emit('close');
  }
}

const ticks = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('writeResponse', () => {
  it('waits for drain before reading the next chunk', async () => {
    let pulls = 0;
    const body = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          pulls += 1;
          if (pulls > 3) controller.close();
          else controller.enqueue(new TextEncoder().encode(`c${pulls}`));
        },
      },
      { highWaterMark: 0 },
    );
    const res = new SlowResponse();
    const done = writeResponse(new Response(body), res as unknown as ServerResponse);
    for (let i = 0; i < 5; i++) await ticks();
    expect(res.written).toEqual(['c1']);
    expect(pulls).toBe(1);
    res.emit('drain');
    for (let i = 0; i < 5; i++) await ticks();
    expect(res.written).toEqual(['c1', 'c2']);
    res.emit('drain');
    await ticks();
    res.emit('drain');
    await done;
    expect(res.written).toEqual(['c1', 'c2', 'c3']);
    expect(res.writableEnded).toBe(true);
  });

  it('destroys the connection when the body fails while the client takes nothing', async () => {
    let fail!: (error: unknown) => void;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('data: 1\n\n'));
        fail = (error) => controller.error(error);
      },
    });
    const res = new SlowResponse();
    const done = writeResponse(new Response(body), res as unknown as ServerResponse).then(
      () => null,
      (error: unknown) => error,
    );
    for (let i = 0; i < 5; i++) await ticks();
    expect(res.written).toEqual(['data: 1\n\n']); // waiting for a drain that never comes
    const dropped = new Error('client read nothing');
    fail(dropped);
    expect(await done).toBe(dropped);
    expect(res.destroyed).toBe(true);
    expect(res.listenerCount('drain')).toBe(0);
  });

  it('copies status, headers and each Set-Cookie separately', async () => {
    const server = await serveNode((_req, res) => {
      const headers = new Headers({ 'content-type': 'application/json', 'x-asst-id': 'a1' });
      headers.append('set-cookie', 'a=1; Path=/');
      headers.append('set-cookie', 'b=2; Path=/; HttpOnly');
      void writeResponse(new Response('{"ok":true}', { status: 201, statusText: 'Made', headers }), res);
    });
    servers.push(server);
    const response = await fetch(server.url);
    expect(response.status).toBe(201);
    expect(response.statusText).toBe('Made');
    expect(response.headers.get('x-asst-id')).toBe('a1');
    expect(response.headers.getSetCookie()).toEqual(['a=1; Path=/', 'b=2; Path=/; HttpOnly']);
    expect(await response.json()).toEqual({ ok: true });
  });

  it('ends the response and rethrows when the body fails mid-stream', async () => {
    let failure: Promise<unknown> | undefined;
    const server = await serveNode((_req, res) => {
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('data: 1\n\n'));
          setImmediate(() => controller.error(new Error('upstream broke')));
        },
      });
      failure = writeResponse(new Response(body, { headers: { 'content-type': 'text/event-stream' } }), res).then(
        () => null,
        (error: unknown) => error,
      );
    });
    servers.push(server);
    const response = await fetch(server.url);
    expect(await response.text()).toBe('data: 1\n\n');
    expect(await failure).toMatchObject({ message: 'upstream broke' });
  });

  it('sends headers before the first body chunk exists', async () => {
    let produce: ((chunk: string) => void) | undefined;
    const server = await serveNode((_req, res) => {
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          produce = (chunk) => {
            controller.enqueue(new TextEncoder().encode(chunk));
            controller.close();
          };
        },
      });
      void writeResponse(new Response(body, { headers: { 'x-early': 'yes' } }), res);
    });
    servers.push(server);
    const response = await fetch(server.url); // resolves on headers: nothing was produced yet
    expect(response.headers.get('x-early')).toBe('yes');
    produce?.('late');
    expect(await response.text()).toBe('late');
  });
});
