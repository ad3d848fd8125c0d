import type { TurnLease } from '@chatwire/storage';

const FIRST_RETRY_MS = 100;
const MAX_RETRY_MS = 2_000;

/**
 * Releases a chat's lease. The first attempt is awaited; if it fails (a database outage), it is retried
 * in the background with backoff until it succeeds or the lease would have expired anyway, so a chat is
 * never kept busy longer than the outage.
 */
export async function releaseLease(lease: TurnLease, ttlMs: number, report: (error: unknown) => void): Promise<void> {
  try {
    await lease.release();
    return;
  } catch (error) {
    report(error);
  }
  const giveUpAt = Date.now() + ttlMs;
  let delay = FIRST_RETRY_MS;
  const retry = (): void => {
    if (Date.now() >= giveUpAt) return;
    const timer = setTimeout(() => {
      lease.release().then(
        () => undefined,
        () => {
          delay = Math.min(delay * 2, MAX_RETRY_MS);
          retry();
        },
      );
    }, delay);
    timer.unref?.();
  };
  retry();
}
