import type { RedisClient } from './connect-redis.js';

/** Closes a connection at once (pending commands reject); a connection already closed is left as it is. */
export function destroyQuietly(connection: RedisClient): void {
  try {
    connection.destroy();
  } catch {
    // already closed
  }
}
