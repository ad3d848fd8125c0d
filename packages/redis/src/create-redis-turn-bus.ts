import { ChatwireError } from '@chatwire/storage';
import { connectRedis, type RedisClient } from './connect-redis.js';
import { destroyQuietly } from './destroy-quietly.js';
import { hub, type TurnBus, type TurnBusEvent } from '@chatwire/core';
import { busChannel, checkKeyPrefix } from './turn-keys.js';

/** The event a bus message carries, or `undefined` when it is not one (a bus never trusts its wire). */
function parseTurnBusEvent(message: string): TurnBusEvent | undefined {
  try {
    return hub.parseTurnBusEvent(JSON.parse(message) as unknown);
  } catch {
    return undefined;
  }
}

export interface RedisTurnBusOptions {
  /** A connected client for publishing; the bus subscribes on a duplicate of it. Left open on `close`. */
  client?: RedisClient;
  /** Or a URL: the bus connects (failing with `CONFIGURATION` when Redis is unreachable) and owns the client. */
  url?: string;
  /** First part of every channel (default `chatwire`). */
  keyPrefix?: string;
  /** Connection errors, messages that are not turn events, and listener errors. */
  onError?: (error: unknown) => void;
}

/**
 * A turn bus on Redis pub/sub: channel `<prefix>:{<chatId>}:bus`, each event sent as its JSON. Subscriptions
 * run on one dedicated connection (a duplicate of the client), which node-redis re-subscribes after a
 * reconnect. Delivery is at most once, like any pub/sub.
 */
export async function createRedisTurnBus(options: RedisTurnBusOptions = {}): Promise<TurnBus> {
  const prefix = checkKeyPrefix(options.keyPrefix ?? 'chatwire');
  const report = (error: unknown): void => {
    try {
      options.onError?.(error);
    } catch {
      // a failing error reporter must not break delivery
    }
  };
  if (!options.client && !options.url) {
    throw new ChatwireError('CONFIGURATION', 'createRedisTurnBus: pass a connected `client` or a `url`');
  }
  const owned = !options.client;
  const client = options.client ?? (await connectRedis(options.url!, { onError: report }));
  let subscriber: RedisClient | undefined;
  let connecting: Promise<RedisClient> | undefined;
  const open = new Set<() => Promise<void>>();
  let closed = false;

  const getSubscriber = (): Promise<RedisClient> => {
    connecting ??= (async () => {
      const connection = client.duplicate() as RedisClient;
      connection.on('error', (error: unknown) => {
        if (!closed) report(error);
      });
      try {
        await connection.connect();
      } catch (error) {
        destroyQuietly(connection);
        connecting = undefined;
        throw error;
      }
      subscriber = connection;
      return connection;
    })();
    return connecting;
  };

  return {
    async publish(chatId, event) {
      if (closed) return;
      await client.sendCommand(['PUBLISH', busChannel(prefix, chatId), JSON.stringify(event)]);
    },

    async subscribe(chatId, listener) {
      if (closed) return async () => {};
      const channel = busChannel(prefix, chatId);
      const connection = await getSubscriber();
      // One function per subscription: the same listener subscribed twice is two subscriptions.
      const onMessage = (message: string): void => {
        const event: TurnBusEvent | undefined = parseTurnBusEvent(message);
        if (!event) {
          report(new ChatwireError('VALIDATION', `Ignored a message on ${channel} that is not a turn event`));
          return;
        }
        try {
          listener(event);
        } catch (error) {
          report(error);
        }
      };
      await connection.subscribe(channel, onMessage);
      let active = true;
      const unsubscribe = async (): Promise<void> => {
        if (!active) return;
        active = false;
        open.delete(unsubscribe);
        if (connection.isOpen) await connection.unsubscribe(channel, onMessage);
      };
      open.add(unsubscribe);
      return unsubscribe;
    },

    async close() {
      if (closed) return;
      closed = true;
      open.clear();
      if (subscriber) destroyQuietly(subscriber);
      if (owned) await client.close().catch(() => destroyQuietly(client));
    },
  };
}
