import { randomUUID } from 'node:crypto';
import { createServer, connect as connectTcp, type AddressInfo, type Socket } from 'node:net';
import { createTurnLimits } from '@chatwire/core/limits';
import { connectRedis, type RedisClient } from '@chatwire/redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatFixture, readSse, type ChatFixture } from './test-support/chat-fixture.js';
import { scriptedModel, textStep } from './test-support/scripted-model.js';

const url = process.env.CHATWIRE_TEST_REDIS_URL;
const prefix = `chatwire-test-limits-${randomUUID().slice(0, 8)}:`;

let n = 0;
async function turn(f: ChatFixture, user = 'alice'): Promise<Response> {
  const chatId = await f.createChat(user);
  const res = await f.request('POST', '/chat', { user, body: { chatId, userMessageId: `u${++n}`, content: 'Hi' } });
  if (res.status === 200) await readSse(res);
  return res;
}

/** A TCP proxy in front of the test Redis: `cut()` drops every connection, `stall()` stops forwarding bytes. */
async function redisProxy(): Promise<{ url: string; cut(): void; stall(): void; close(): Promise<void> }> {
  const target = new URL(url!);
  const sockets = new Set<Socket>();
  let refusing = false;
  let stalled = false;
  const server = createServer((inbound) => {
    if (refusing) return void inbound.destroy();
    const outbound = connectTcp(Number(target.port || 6379), target.hostname);
    sockets.add(inbound).add(outbound);
    const drop = () => (inbound.destroy(), outbound.destroy());
    inbound.on('error', drop).on('close', drop);
    outbound.on('error', drop).on('close', drop);
    inbound.on('data', (data) => stalled || outbound.write(data));
    outbound.on('data', (data) => stalled || inbound.write(data));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const proxied = new URL(url!);
  proxied.hostname = '127.0.0.1';
  proxied.port = String((server.address() as AddressInfo).port);
  const cut = () => {
    refusing = true;
    for (const socket of sockets) socket.destroy();
  };
  return {
    url: proxied.toString(),
    cut,
    stall: () => void (stalled = true),
    close: () => new Promise<void>((resolve) => (cut(), server.close(() => resolve()))),
  };
}

describe.skipIf(!url)(`limits on a real Redis shared by two handlers${url ? '' : ' (skipped: CHATWIRE_TEST_REDIS_URL not set)'}`, () => {
  const clients: RedisClient[] = [];
  beforeAll(async () => {
    clients.push(await connectRedis(url!), await connectRedis(url!));
  });
  afterAll(async () => {
    const [client] = clients;
    for await (const keys of client!.scanIterator({ MATCH: `${prefix}*`, COUNT: 1000 })) if (keys.length > 0) await client!.del(keys);
    await Promise.all(clients.map((c) => c.close()));
  });

  function twoHandlers(options: { turnsPerMinute?: number; tokensPerDay?: number }, keyPrefix: string) {
    const scripted = scriptedModel([textStep('Hello there')]);
    const [a, b] = clients.map((redis) =>
      chatFixture(scripted.model, { handler: { limits: createTurnLimits({ ...options, redis, keyPrefix: `${prefix}${keyPrefix}` }) } }),
    );
    return { scripted, a: a!, b: b! };
  }

  it('turns per minute hold across both handlers', async () => {
    const { scripted, a, b } = twoHandlers({ turnsPerMinute: 3 }, 'tpm:');
    expect((await turn(a)).status).toBe(200);
    expect((await turn(b)).status).toBe(200);
    expect((await turn(a)).status).toBe(200);
    const refused = await turn(b);
    expect(refused.status).toBe(429);
    const body = (await refused.json()) as { error: { code: string; retryAfter: number } };
    expect(body.error.code).toBe('RATE_LIMITED');
    expect(body.error.retryAfter).toBeGreaterThanOrEqual(1);
    expect(body.error.retryAfter).toBeLessThanOrEqual(60);
    expect(refused.headers.get('retry-after')).toBe(String(body.error.retryAfter));
    expect((await turn(a)).status).toBe(429);
    expect(scripted.calls).toHaveLength(3);
    expect((await turn(b, 'bob')).status).toBe(200);
  });

  it('tokens per day hold across both handlers (a Redis counter per user and UTC day)', async () => {
    const { scripted, a, b } = twoHandlers({ tokensPerDay: 20 }, 'tpd:');
    const counted = async () => {
      let total = 0;
      for await (const keys of clients[0]!.scanIterator({ MATCH: `${prefix}tpd:*alice*`, COUNT: 100 })) {
        for (const key of keys) total += Number(await clients[0]!.get(key));
      }
      return total;
    };
    expect((await turn(a)).status).toBe(200);
    await expect.poll(counted).toBe(15);
    expect((await turn(b)).status).toBe(200);
    await expect.poll(counted).toBe(30);
    const refused = await turn(a);
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('QUOTA_EXCEEDED');
    expect((await turn(b)).status).toBe(429);
    expect(scripted.calls).toHaveLength(2);
  });

  it('Redis down: turns run (fail open) and the error is reported; with failOpen: false, 503 at once', async () => {
    const proxy = await redisProxy();
    const client = await connectRedis(proxy.url, { onError: () => undefined });
    try {
      const scripted = scriptedModel([textStep('Hello there')]);
      const errors: unknown[] = [];
      const open = chatFixture(scripted.model, {
        handler: { limits: createTurnLimits({ turnsPerMinute: 1, redis: client, keyPrefix: `${prefix}down:`, onError: (e) => errors.push(e) }) },
      });
      const closed = chatFixture(scripted.model, {
        handler: { limits: createTurnLimits({ turnsPerMinute: 1, redis: client, keyPrefix: `${prefix}down:`, failOpen: false }) },
      });
      expect((await turn(open)).status).toBe(200);
      proxy.cut();
      expect((await turn(open)).status).toBe(200);
      expect((await turn(open)).status).toBe(200);
      expect(errors.length).toBeGreaterThanOrEqual(2);
      const refused = await turn(closed);
      expect(refused.status).toBe(503);
      expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('UNAVAILABLE');
      expect(scripted.calls).toHaveLength(3);
    } finally {
      await proxy.close();
      client.destroy();
    }
  });

  it('a Redis that stops answering costs at most timeoutMs, never a hang', async () => {
    const proxy = await redisProxy();
    const client = await connectRedis(proxy.url, { onError: () => undefined });
    try {
      const errors: unknown[] = [];
      const f = chatFixture(scriptedModel([textStep('Hello there')]).model, {
        handler: {
          limits: createTurnLimits({ turnsPerMinute: 1, redis: client, keyPrefix: `${prefix}stall:`, timeoutMs: 100, onError: (e) => errors.push(e) }),
        },
      });
      proxy.stall();
      expect((await turn(f)).status).toBe(200);
      expect(String(errors[0])).toContain('longer than 100 ms');
    } finally {
      await proxy.close();
      client.destroy();
    }
  });
});
