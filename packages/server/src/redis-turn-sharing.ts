import { hub as hubs, type TurnBus, type TurnHub } from '@chatwire/core';
import { connectRedis, createRedisTurnBus, createRedisTurnHub, type RedisClient } from '@chatwire/redis';
import { ChatwireError } from '@chatwire/storage';

/** Where running turns are shared: a Redis URL (chatwire connects and owns the client) or your client. */
export type RedisOption = { url: string; keyPrefix?: string } | { client: RedisClient; keyPrefix?: string };

export interface TurnSharing {
  hub: TurnHub;
  bus: TurnBus;
  /** Resolves once Redis is connected; rejects with a CONFIGURATION error naming the URL (no credentials). */
  ready: Promise<void>;
  /** The connected client (for other shared state, such as rate limits). */
  client: Promise<RedisClient>;
  close(): Promise<void>;
}

/**
 * Running turns shared through Redis: their chunk logs in Redis Streams (this process's own log first, so
 * a Redis outage never costs a local reader a byte) and stop requests over pub/sub. The hub and bus can be
 * handed to the chat service at once; they are used only after `ready` resolved (the handler waits for it).
 */
export function redisTurnSharing(
  option: RedisOption,
  onError: (error: unknown) => void,
  settings: { liveTtlMs?: number } = {},
): TurnSharing {
  const keyPrefix = option.keyPrefix === undefined ? {} : { keyPrefix: option.keyPrefix };
  const connecting = (async () => {
    const client = 'client' in option ? option.client : await connectRedis(option.url, { onError });
    const [shared, bus] = await Promise.all([
      createRedisTurnHub({ client, onError, ...keyPrefix, ...settings }),
      createRedisTurnBus({ client, onError, ...keyPrefix }),
    ]);
    const owned = 'client' in option ? null : client;
    return { hub: hubs.createLayeredTurnHub({ local: hubs.createMemoryTurnHub(), shared, onError }), bus, client, owned };
  })();
  // A failed start-up is reported through `ready` (and every request): never an unhandled rejection.
  connecting.catch(onError);
  const ready = connecting.then(() => undefined);
  const client = connecting.then((value) => value.client);
  ready.catch(() => undefined);
  client.catch(() => undefined);
  const resolved = () => connecting;
  const notReady = () => new ChatwireError('CONFIGURATION', 'Redis turn sharing is used before it is ready');
  let current: Awaited<typeof connecting> | null = null;
  void connecting.then((value) => (current = value), () => undefined);

  const hub: TurnHub = {
    open(chatId, turnId) {
      if (!current) throw notReady();
      return current.hub.open(chatId, turnId);
    },
    attach: async (chatId, options) => (await resolved()).hub.attach(chatId, options),
    close: async () => (await resolved()).hub.close(),
  };
  const bus: TurnBus = {
    publish: async (chatId, event) => (await resolved()).bus.publish(chatId, event),
    subscribe: async (chatId, listener) => (await resolved()).bus.subscribe(chatId, listener),
    close: async () => (await resolved()).bus.close(),
  };
  return {
    hub,
    bus,
    ready,
    client,
    async close() {
      const value = await connecting.catch(() => null);
      if (!value) return;
      await Promise.allSettled([value.hub.close(), value.bus.close()]);
      await value.owned?.close().catch(() => undefined);
    },
  };
}
