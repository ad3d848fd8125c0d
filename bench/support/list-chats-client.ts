/**
 * Load-generator child of `bench/list-chats.bench.ts`: n keep-alive HTTP/1.1 connections, each sending
 * the next GET as soon as the previous answer is complete (no pipelining), for a warm-up and then a timed
 * window. A minimal client over `node:net` (pre-built request bytes; reads the status, Content-Length or
 * chunked framing, nothing else), so that on a 2-core machine it stays far cheaper than the servers it
 * drives: `node:http`'s own client costs about as much CPU per request as a bare node:http server and
 * would cap every line near the same figure. Its event-loop utilisation is reported to show it was not
 * the limit.
 */
import { connect, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { ListClientCommand, ListClientReply, LoadResult, LoadSpec } from './list-chats-protocol.js';

const CRLF2 = Buffer.from('\r\n\r\n');

/**
 * Length of the complete response at the start of `buf` (head + body), or -1 while incomplete.
 * Handles `Content-Length` and `Transfer-Encoding: chunked` (no trailers), as the three servers answer.
 */
export function responseLength(buf: Buffer): { length: number; status: number; bodyStart: number; chunked: boolean } | null {
  const headEnd = buf.indexOf(CRLF2);
  if (headEnd === -1) return null;
  const head = buf.toString('latin1', 0, headEnd).toLowerCase();
  const status = Number(head.slice(9, 12));
  const bodyStart = headEnd + 4;
  const lengthAt = head.indexOf('\r\ncontent-length:');
  if (lengthAt !== -1) {
    const end = head.indexOf('\r\n', lengthAt + 2);
    const length = Number(head.slice(lengthAt + 17, end === -1 ? undefined : end).trim());
    return buf.length >= bodyStart + length ? { length: bodyStart + length, status, bodyStart, chunked: false } : null;
  }
  if (!head.includes('\r\ntransfer-encoding: chunked')) return { length: bodyStart, status, bodyStart, chunked: false };
  let at = bodyStart;
  for (;;) {
    const lineEnd = buf.indexOf('\r\n', at, 'latin1');
    if (lineEnd === -1) return null;
    const size = parseInt(buf.toString('latin1', at, lineEnd), 16);
    at = lineEnd + 2 + size + 2;
    if (at > buf.length) return null;
    if (size === 0) return { length: at, status, bodyStart, chunked: true };
  }
}

/** The body of a complete chunked or plain response (for the byte count of the last answer). */
function bodyBytes(buf: Buffer, parsed: { length: number; bodyStart: number; chunked: boolean }): number {
  if (!parsed.chunked) return parsed.length - parsed.bodyStart;
  let at = parsed.bodyStart;
  let total = 0;
  for (;;) {
    const lineEnd = buf.indexOf('\r\n', at, 'latin1');
    const size = parseInt(buf.toString('latin1', at, lineEnd), 16);
    if (size === 0) return total;
    total += size;
    at = lineEnd + 2 + size + 2;
  }
}

async function run(spec: LoadSpec, connections: number, warmupMs: number, durationMs: number): Promise<LoadResult> {
  const head = [`GET ${spec.path} HTTP/1.1`, 'host: 127.0.0.1', 'connection: keep-alive'];
  for (const [name, value] of Object.entries(spec.headers)) head.push(`${name}: ${value}`);
  const request = Buffer.from(`${head.join('\r\n')}\r\n\r\n`, 'latin1');

  let counting = false;
  let stopping = false;
  let requests = 0;
  let answered = 0;
  let errors = 0;
  let lastBody = 0;
  let inFlight = 0;
  let allDone!: () => void;
  const done = new Promise<void>((resolve) => (allDone = resolve));
  const sockets = new Set<Socket>();

  const open = (): void => {
    const socket = connect({ port: spec.port, host: '127.0.0.1', noDelay: true });
    sockets.add(socket);
    let pending: Buffer = Buffer.alloc(0);
    let waiting = false;
    const send = (): void => {
      if (stopping) {
        if (inFlight === 0) allDone();
        return;
      }
      waiting = true;
      inFlight++;
      socket.write(request);
    };
    const settle = (): void => {
      waiting = false;
      inFlight--;
      if (stopping && inFlight === 0) allDone();
    };
    socket.on('connect', send);
    socket.on('data', (chunk: Buffer) => {
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
      const parsed = responseLength(pending);
      if (parsed === null || !waiting) return;
      answered++;
      if (parsed.status === 200) {
        if (counting) requests++;
        lastBody = bodyBytes(pending, parsed);
      } else if (counting) errors++;
      pending = pending.subarray(parsed.length);
      settle();
      send();
    });
    const lost = (): void => {
      sockets.delete(socket);
      if (waiting) {
        settle();
        if (counting) errors++;
      }
      if (!stopping) open();
      else if (inFlight === 0) allDone();
    };
    socket.on('error', () => undefined);
    socket.on('close', lost);
  };

  for (let i = 0; i < connections; i++) open();
  await new Promise((r) => setTimeout(r, warmupMs));
  const elu0 = performance.eventLoopUtilization();
  const started = performance.now();
  counting = true;
  await new Promise((r) => setTimeout(r, durationMs));
  counting = false;
  const ms = performance.now() - started;
  const elu = performance.eventLoopUtilization(elu0).utilization;
  stopping = true;
  if (inFlight === 0) allDone();
  await Promise.race([done, new Promise((r) => setTimeout(r, 5000))]);
  for (const socket of sockets) socket.destroy();
  return { requests, answered, ms, errors, clientElu: elu, bodyBytes: lastBody };
}

function send(reply: ListClientReply): void {
  process.send!(reply);
}

process.on('message', (command: ListClientCommand) => {
  if (command.type === 'exit') process.exit(0);
  void run(command.spec, command.connections, command.warmupMs, command.durationMs).then((result) => send({ type: 'done', result }));
});

// The bench that started this child is gone: so is the child.
process.on('disconnect', () => process.exit(0));
