import { ChatwireError } from '@chatwire/storage';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_CLIENT_IDLE_TIMEOUT_MS, DEFAULT_HEARTBEAT_MS, withHeartbeat } from './with-heartbeat.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const HEARTBEAT = ': keep-alive\n\n';

/** A source the test feeds by hand; records how often it was pulled and why it was cancelled. */
function manualSource(): {
  stream: ReadableStream<Uint8Array>;
  push(text: string): void;
  close(): void;
  fail(error: unknown): void;
  cancelled: unknown[];
} {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const cancelled: unknown[] = [];
  const stream = new ReadableStream<Uint8Array>(
    {
      start: (c) => void (controller = c),
      cancel: (reason) => void cancelled.push(reason),
    },
    { highWaterMark: 0 },
  );
  return {
    stream,
    push: (text) => controller.enqueue(encoder.encode(text)),
    close: () => controller.close(),
    fail: (error) => controller.error(error),
    cancelled,
  };
}

/** A source that can produce without end: one event per pull. */
function endlessSource(): { stream: ReadableStream<Uint8Array>; pulls: () => number; cancelled: unknown[] } {
  let pulls = 0;
  const cancelled: unknown[] = [];
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        pulls += 1;
        controller.enqueue(encoder.encode(`data: ${pulls}\n\n`));
      },
      cancel: (reason) => void cancelled.push(reason),
    },
    { highWaterMark: 0 },
  );
  return { stream, pulls: () => pulls, cancelled };
}

/** Starts a read and lets the test look at it without awaiting. */
function track(reader: ReadableStreamDefaultReader<Uint8Array>): { settled: () => boolean; result: Promise<string | null> } {
  let settled = false;
  const result = reader.read().then(
    ({ done, value }) => {
      settled = true;
      return done ? null : decoder.decode(value);
    },
    (error: unknown) => {
      settled = true;
      throw error;
    },
  );
  result.catch(() => undefined);
  return { settled: () => settled, result };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('withHeartbeat', () => {
  it('passes the source through unchanged and ends with it', async () => {
    const source = manualSource();
    const reader = withHeartbeat(source.stream).getReader();
    source.push('data: 1\n\n');
    source.push('data: 2\n\n');
    source.close();
    expect(decoder.decode((await reader.read()).value)).toBe('data: 1\n\n');
    expect(decoder.decode((await reader.read()).value)).toBe('data: 2\n\n');
    expect((await reader.read()).done).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('sends a keep-alive comment after heartbeatMs of silence, then the next event', async () => {
    const source = manualSource();
    const reader = withHeartbeat(source.stream, { heartbeatMs: 1000 }).getReader();
    const first = track(reader);
    await vi.advanceTimersByTimeAsync(999);
    expect(first.settled()).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await first.result).toBe(HEARTBEAT);

    const second = track(reader);
    await vi.advanceTimersByTimeAsync(1000);
    expect(await second.result).toBe(HEARTBEAT);

    const third = track(reader);
    await vi.advanceTimersByTimeAsync(400);
    source.push('data: late\n\n');
    expect(await third.result).toBe('data: late\n\n');
  });

  it('defaults to a 15 s heartbeat', async () => {
    const source = manualSource();
    const reader = withHeartbeat(source.stream).getReader();
    const read = track(reader);
    await vi.advanceTimersByTimeAsync(DEFAULT_HEARTBEAT_MS - 1);
    expect(read.settled()).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await read.result).toBe(HEARTBEAT);
  });

  it('never puts a comment inside an event the source sent in pieces', async () => {
    const source = manualSource();
    const reader = withHeartbeat(source.stream, { heartbeatMs: 1000 }).getReader();
    source.push('data: {"half":');
    expect(decoder.decode((await reader.read()).value)).toBe('data: {"half":');
    const rest = track(reader);
    await vi.advanceTimersByTimeAsync(5000);
    expect(rest.settled()).toBe(false);
    source.push('1}\n\n');
    expect(await rest.result).toBe('1}\n\n');
    const next = track(reader);
    await vi.advanceTimersByTimeAsync(1000);
    expect(await next.result).toBe(HEARTBEAT);
  });

  it('reads the source only as fast as the consumer reads', async () => {
    const source = endlessSource();
    const reader = withHeartbeat(source.stream).getReader();
    for (let i = 1; i <= 5; i++) expect(decoder.decode((await reader.read()).value)).toBe(`data: ${i}\n\n`);
    await vi.advanceTimersByTimeAsync(100);
    expect(source.pulls()).toBeLessThanOrEqual(6);
  });

  it('drops a consumer that reads nothing for clientIdleTimeoutMs: source cancelled, onIdle, stream failed', async () => {
    const source = endlessSource();
    const onIdle = vi.fn();
    const reader = withHeartbeat(source.stream, { clientIdleTimeoutMs: 2000, onIdle }).getReader();
    await reader.read();
    await vi.advanceTimersByTimeAsync(1999);
    expect(source.cancelled).toEqual([]);
    expect(onIdle).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(onIdle).toHaveBeenCalledTimes(1);
    expect(source.cancelled).toHaveLength(1);
    const reason = source.cancelled[0];
    expect(ChatwireError.is(reason, 'TIMEOUT')).toBe(true);
    expect((reason as Error).message).toBe('The client read nothing for 2000 ms');
    await expect(reader.read()).rejects.toBe(reason);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('drops a consumer that never reads at all, after the 60 s default', async () => {
    const source = endlessSource();
    withHeartbeat(source.stream);
    await vi.advanceTimersByTimeAsync(DEFAULT_CLIENT_IDLE_TIMEOUT_MS - 1);
    expect(source.cancelled).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(source.cancelled).toHaveLength(1);
  });

  it('keeps a consumer that is waiting for a quiet source, and one that reads slowly', async () => {
    const quiet = manualSource();
    const waiting = withHeartbeat(quiet.stream, { heartbeatMs: 0, clientIdleTimeoutMs: 1000 }).getReader();
    const read = track(waiting);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(quiet.cancelled).toEqual([]);
    quiet.push('data: finally\n\n');
    expect(await read.result).toBe('data: finally\n\n');

    const busy = endlessSource();
    const slow = withHeartbeat(busy.stream, { clientIdleTimeoutMs: 1000 }).getReader();
    for (let i = 0; i < 20; i++) {
      await slow.read();
      await vi.advanceTimersByTimeAsync(900);
    }
    expect(busy.cancelled).toEqual([]);
  });

  it('counts a heartbeat the consumer does not take as unread data', async () => {
    const source = manualSource();
    const onIdle = vi.fn();
    const reader = withHeartbeat(source.stream, { heartbeatMs: 1000, clientIdleTimeoutMs: 3000, onIdle }).getReader();
    const read = track(reader);
    await vi.advanceTimersByTimeAsync(1000);
    expect(await read.result).toBe(HEARTBEAT);
    await vi.advanceTimersByTimeAsync(3000);
    expect(onIdle).toHaveBeenCalledTimes(1);
    expect(source.cancelled).toHaveLength(1);
  });

  it('cancels the source with the consumer reason and stops its timers', async () => {
    const source = manualSource();
    const reader = withHeartbeat(source.stream, { heartbeatMs: 1000, clientIdleTimeoutMs: 1000 }).getReader();
    const read = track(reader);
    await vi.advanceTimersByTimeAsync(500);
    await reader.cancel('gone');
    expect(await read.result).toBeNull();
    expect(source.cancelled).toEqual(['gone']);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('fails with the source error and stops its timers', async () => {
    const source = manualSource();
    const reader = withHeartbeat(source.stream, { heartbeatMs: 1000 }).getReader();
    const read = track(reader);
    const broken = new Error('upstream broke');
    source.fail(broken);
    await expect(read.result).rejects.toBe(broken);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('treats limits beyond the largest timer delay as long ones, not immediate ones', async () => {
    const source = manualSource();
    const reader = withHeartbeat(source.stream, { heartbeatMs: 2 ** 40, clientIdleTimeoutMs: Number.POSITIVE_INFINITY }).getReader();
    const read = track(reader);
    await vi.advanceTimersByTimeAsync(24 * 3600 * 1000);
    expect(read.settled()).toBe(false);
    expect(source.cancelled).toEqual([]);
  });

  it('does nothing on its own with both limits set to 0', async () => {
    const source = manualSource();
    const reader = withHeartbeat(source.stream, { heartbeatMs: 0, clientIdleTimeoutMs: 0 }).getReader();
    expect(vi.getTimerCount()).toBe(0);
    const read = track(reader);
    await vi.advanceTimersByTimeAsync(10 * DEFAULT_CLIENT_IDLE_TIMEOUT_MS);
    expect(read.settled()).toBe(false);
    expect(source.cancelled).toEqual([]);
  });
});
