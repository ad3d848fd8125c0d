import type { TurnBus, TurnBusEvent } from '@chatwire/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RedisClient } from './connect-redis.js';
import { createRedisTurnBus } from './create-redis-turn-bus.js';
import { destroyQuietly } from './destroy-quietly.js';
import { connect, redisUrl, skipReason, uniquePrefix, waitFor } from './test-redis.js';

describe.skipIf(skipReason !== '')(`Redis turn bus ${skipReason}`, () => {
  const prefix = uniquePrefix('bus');
  const errors: unknown[] = [];
  const clients: RedisClient[] = [];
  const buses: TurnBus[] = [];
  let chatCounter = 0;
  const newChat = () => `chat-${++chatCounter}`;

  /** A bus on a client of its own: two of them behave like two processes. */
  async function startProcess(): Promise<TurnBus> {
    const client = await connect();
    clients.push(client);
    const bus = await createRedisTurnBus({ client, keyPrefix: prefix, onError: (e) => errors.push(e) });
    buses.push(bus);
    return bus;
  }

  let admin: RedisClient;
  beforeAll(async () => {
    admin = await connect();
  });
  afterAll(async () => {
    for (const bus of buses) await bus.close();
    for (const client of clients) destroyQuietly(client);
    destroyQuietly(admin);
  });

  it('carries a stop from one process to a subscriber on another within a second, per chat', async () => {
    const a = await startProcess();
    const b = await startProcess();
    const chat = newChat();
    const got: TurnBusEvent[] = [];
    const other: TurnBusEvent[] = [];
    await b.subscribe(chat, (e) => got.push(e));
    await b.subscribe(newChat(), (e) => other.push(e));
    const sent = Date.now();
    await a.publish(chat, { type: 'stop' });
    await waitFor(() => got.length === 1, 1000);
    expect(Date.now() - sent).toBeLessThan(1000);
    await a.publish(chat, { type: 'ended', turnId: 'turn-1', ending: 'stopped' });
    await waitFor(() => got.length === 2, 1000);
    expect(got).toEqual([{ type: 'stop' }, { type: 'ended', turnId: 'turn-1', ending: 'stopped' }]);
    expect(other).toEqual([]);
  });

  it('uses the hash-tagged channel of the chat and sends the event as JSON', async () => {
    const a = await startProcess();
    const chat = newChat();
    const subscriber = admin.duplicate();
    await subscriber.connect();
    const messages: Array<[string, string]> = [];
    await subscriber.subscribe(`${prefix}:{${chat}}:bus`, (message, channel) => messages.push([channel, message]));
    await a.publish(chat, { type: 'stop' });
    await waitFor(() => messages.length === 1, 1000);
    expect(messages).toEqual([[`${prefix}:{${chat}}:bus`, '{"type":"stop"}']]);
    destroyQuietly(subscriber);
  });

  it('stops delivering to an unsubscribed listener and keeps the others', async () => {
    const a = await startProcess();
    const b = await startProcess();
    const chat = newChat();
    const first: TurnBusEvent[] = [];
    const second: TurnBusEvent[] = [];
    const listener = (e: TurnBusEvent) => first.push(e);
    const unsubscribe = await b.subscribe(chat, listener);
    await b.subscribe(chat, listener);
    await b.subscribe(chat, (e) => second.push(e));
    await unsubscribe();
    await unsubscribe();
    await a.publish(chat, { type: 'stop' });
    await waitFor(() => second.length === 1, 1000);
    await a.publish(chat, { type: 'stop' });
    await waitFor(() => second.length === 2, 1000);
    expect(first).toEqual([{ type: 'stop' }, { type: 'stop' }]);
  });

  it('reports messages that are not turn events and listener errors to onError', async () => {
    const b = await startProcess();
    const chat = newChat();
    const got: TurnBusEvent[] = [];
    await b.subscribe(chat, (e) => {
      got.push(e);
      throw new Error('listener broke');
    });
    const before = errors.length;
    await admin.publish(`${prefix}:{${chat}}:bus`, 'not json');
    await admin.publish(`${prefix}:{${chat}}:bus`, '{"type":"launch"}');
    await admin.publish(`${prefix}:{${chat}}:bus`, '{"type":"stop"}');
    await waitFor(() => errors.length === before + 3, 1000);
    expect(got).toEqual([{ type: 'stop' }]);
    expect(errors.slice(before)).toEqual([
      expect.objectContaining({ code: 'VALIDATION' }),
      expect.objectContaining({ code: 'VALIDATION' }),
      new Error('listener broke'),
    ]);
  });

  it('connects by URL and owns that client; fails at start-up when Redis is unreachable', async () => {
    const bus = await createRedisTurnBus({ url: redisUrl, keyPrefix: prefix });
    const got: TurnBusEvent[] = [];
    const chat = newChat();
    await bus.subscribe(chat, (e) => got.push(e));
    await bus.publish(chat, { type: 'stop' });
    await waitFor(() => got.length === 1, 1000);
    await bus.close();
    await bus.publish(chat, { type: 'stop' });
    await expect(createRedisTurnBus({ url: 'redis://user:secret@127.0.0.1:1' })).rejects.toMatchObject({
      code: 'CONFIGURATION',
      message: expect.stringContaining('127.0.0.1:1'),
    });
  });
});
