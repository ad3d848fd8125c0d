import { ChatwireError } from '@chatwire/storage';
import { createClient } from 'redis';
import { destroyQuietly } from './destroy-quietly.js';

/** A connected node-redis client speaking RESP3, as `connectRedis` makes it. */
export type RedisClient = ReturnType<typeof createClient<{}, {}, {}, 3, {}>>;

export interface ConnectRedisOptions {
  /** Receives connection errors after start-up (without a listener node-redis would crash the process). */
  onError?: (error: unknown) => void;
  /** Upper bound of the delay between reconnection attempts after a lost connection (default 2000 ms). */
  maxReconnectDelayMs?: number;
  /** Time allowed for each connection attempt (default 5000 ms). */
  connectTimeoutMs?: number;
}

/** The URL with any user name and password removed, for messages and logs. */
export function redactRedisUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    return parsed.toString().replace(/\/$/, '');
  } catch {
    return url.replace(/\/\/[^@/]*@/, '//');
  }
}

/**
 * Creates a RESP3 client and connects it. A first connection that fails throws
 * `ChatwireError('CONFIGURATION')` naming the URL without credentials. Later, a lost connection is retried
 * forever with a growing delay capped at `maxReconnectDelayMs`; commands sent while it is down fail at once
 * (no offline queue, so nothing waits on a dead server), and every error goes to `onError`.
 */
export async function connectRedis(url: string, options: ConnectRedisOptions = {}): Promise<RedisClient> {
  const where = redactRedisUrl(url);
  if (typeof url !== 'string' || url.length === 0) {
    throw new ChatwireError('CONFIGURATION', 'connectRedis: a Redis URL is required (is CHATWIRE_REDIS_URL set?)');
  }
  const maxDelay = options.maxReconnectDelayMs ?? 2000;
  let connected = false;
  let client: RedisClient;
  try {
    client = createClient({
      url,
      RESP: 3,
      disableOfflineQueue: true,
      socket: {
        connectTimeout: options.connectTimeoutMs ?? 5000,
        // Before the first connection: give up (connect rejects). After: retry, backing off up to maxDelay.
        reconnectStrategy: (retries: number, cause: Error) =>
          connected ? Math.min(50 * 2 ** Math.min(retries, 10), maxDelay) : cause,
      },
    });
  } catch (cause) {
    throw new ChatwireError('CONFIGURATION', `Redis URL is not valid: ${where}`, { cause });
  }
  client.on('error', (error: unknown) => {
    if (connected) options.onError?.(error);
  });
  try {
    await client.connect();
  } catch (cause) {
    destroyQuietly(client);
    const reason = cause instanceof Error ? cause.message.replaceAll(url, where) : String(cause);
    throw new ChatwireError('CONFIGURATION', `Redis is unreachable at ${where} (${reason})`, { cause });
  }
  connected = true;
  return client;
}
