import { ChatwireError } from '@chatwire/storage';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';

export const DEFAULT_SHARE_READS_PER_MINUTE = 60;

/** Counts reads of shared chats per client address, in this process. */
export type ShareReadLimiter = (clientKey: string) => Promise<void>;

/**
 * At most `perMinute` reads of `GET /shared/:token` per client key (its address) and minute, hits and misses
 * alike, so guessing tokens is slow; over it: 429 `RATE_LIMITED` with `retryAfter`. Counted in this process
 * (each process has its own budget).
 */
export function createShareReadLimiter(perMinute: number = DEFAULT_SHARE_READS_PER_MINUTE): ShareReadLimiter {
  if (!Number.isInteger(perMinute) || perMinute < 1) {
    throw new ChatwireError('CONFIGURATION', `sharing.readsPerMinute must be a positive integer, got ${perMinute}`);
  }
  const limiter = new RateLimiterMemory({ points: perMinute, duration: 60, keyPrefix: 'shared' });
  return async (clientKey) => {
    try {
      await limiter.consume(clientKey);
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      throw new ChatwireError('RATE_LIMITED', 'Too many requests for shared chats; retry later', {
        details: { retryAfter: rejection.msBeforeNext / 1000 },
      });
    }
  };
}
