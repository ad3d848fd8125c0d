import type { RedisClient } from './connect-redis.js';
import { destroyQuietly } from './destroy-quietly.js';

export interface BlockingPool {
  /** A connection of its own for one blocking command; give it back with `release` or `discard`. */
  acquire(): Promise<RedisClient>;
  /** Returns a healthy connection to the idle list (or closes it when the list is full). */
  release(connection: RedisClient): void;
  /** Drops a connection whose command failed. */
  discard(connection: RedisClient): void;
  /** Closes every connection, idle or in use (their pending commands reject). */
  close(): void;
  /** Connections open now (idle or in use). */
  size(): number;
}

/**
 * Connections for blocking reads (`XREAD BLOCK` holds its connection until it returns): duplicates of the
 * hub's client, made on demand, at most `maxIdle` kept idle for the next reader.
 */
export function createBlockingPool(client: RedisClient, maxIdle: number, onError: (error: unknown) => void): BlockingPool {
  const idle: RedisClient[] = [];
  const open = new Set<RedisClient>();
  let closed = false;

  const drop = (connection: RedisClient): void => {
    open.delete(connection);
    destroyQuietly(connection);
  };

  return {
    async acquire() {
      if (closed) throw new Error('Redis turn hub is closed');
      // An idle connection that lost its socket meanwhile is dropped rather than handed out.
      for (let reused = idle.pop(); reused; reused = idle.pop()) {
        if (reused.isReady) return reused;
        drop(reused);
      }
      const connection = client.duplicate() as RedisClient;
      connection.on('error', (error: unknown) => {
        if (!closed) onError(error);
      });
      open.add(connection);
      try {
        await connection.connect();
      } catch (error) {
        drop(connection);
        throw error;
      }
      if (closed) {
        drop(connection);
        throw new Error('Redis turn hub is closed');
      }
      return connection;
    },
    release(connection) {
      if (closed || idle.length >= maxIdle || !connection.isReady) drop(connection);
      else idle.push(connection);
    },
    discard: drop,
    close() {
      closed = true;
      idle.length = 0;
      for (const connection of [...open]) drop(connection);
    },
    size: () => open.size,
  };
}
