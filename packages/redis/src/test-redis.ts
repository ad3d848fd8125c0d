import { randomUUID } from 'node:crypto';
import { createServer, connect as connectTcp, type AddressInfo, type Socket } from 'node:net';
import { connectRedis, type RedisClient } from './connect-redis.js';

/** The Redis the tests run against; the tests that need it are skipped without it. */
export const redisUrl = process.env.CHATWIRE_TEST_REDIS_URL;
/** Appended to the names of the suites that need Redis: empty when it is configured. */
export const skipReason = redisUrl ? '' : '(skipped: CHATWIRE_TEST_REDIS_URL not set)';

/** A key prefix no other test file uses. */
export const uniquePrefix = (name: string): string => `chatwire-test-${name}-${randomUUID().slice(0, 8)}`;

/** Deletes every key under `prefix`. */
export async function deleteKeys(client: RedisClient, prefix: string): Promise<void> {
  for await (const keys of client.scanIterator({ MATCH: `${prefix}:*`, COUNT: 1000 })) {
    if (keys.length > 0) await client.del(keys);
  }
}

export const connect = (): Promise<RedisClient> => connectRedis(redisUrl!);

const encoder = new TextEncoder();
const decoder = new TextDecoder();
export const sse = (chunk: object): Uint8Array => encoder.encode(`data: ${JSON.stringify(chunk)}\n\n`);
export const DONE = encoder.encode('data: [DONE]\n\n');
export const INTERRUPTED = 'data: {"type":"error","errorText":"The turn was interrupted."}\n\ndata: [DONE]\n\n';
export const TOO_LONG = 'data: {"type":"error","errorText":"The stream is too long to resume."}\n\ndata: [DONE]\n\n';

export const turnChunks = (count: number): Uint8Array[] => [
  sse({ type: 'start', messageId: 'a1' }),
  ...Array.from({ length: count }, (_, i) => sse({ type: 'text-delta', id: 't0', delta: `word ${i} ` })),
  sse({ type: 'finish' }),
  DONE,
];

export const text = (chunks: Uint8Array[]): string => chunks.map((c) => decoder.decode(c)).join('');

export async function readAll(stream: ReadableStream<Uint8Array>): Promise<string> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text(chunks);
    chunks.push(value);
  }
}

/** Polls `check` until it returns true (at most `ms`). */
export async function waitFor(check: () => Promise<boolean> | boolean, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('waitFor: condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * A TCP proxy in front of the test Redis, so a test can cut a client's connection ("Redis lost") without
 * touching the server others use. `cut()` destroys every proxied connection and refuses new ones.
 */
export async function startRedisProxy(): Promise<{ url: string; cut: () => void; close: () => Promise<void> }> {
  const target = new URL(redisUrl!);
  const sockets = new Set<Socket>();
  let refusing = false;
  const server = createServer((inbound) => {
    if (refusing) {
      inbound.destroy();
      return;
    }
    const outbound = connectTcp(Number(target.port || 6379), target.hostname);
    sockets.add(inbound).add(outbound);
    const drop = () => {
      inbound.destroy();
      outbound.destroy();
      sockets.delete(inbound);
      sockets.delete(outbound);
    };
    inbound.on('error', drop).on('close', drop);
    outbound.on('error', drop).on('close', drop);
    inbound.pipe(outbound).pipe(inbound);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const proxied = new URL(redisUrl!);
  proxied.hostname = '127.0.0.1';
  proxied.port = String(port);
  return {
    url: proxied.toString(),
    cut() {
      refusing = true;
      for (const socket of sockets) socket.destroy();
      sockets.clear();
    },
    close: () =>
      new Promise<void>((resolve) => {
        refusing = true;
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
