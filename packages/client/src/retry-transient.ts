import { ChatwireClientError } from './chatwire-client-error.js';

/** Waits before the 2nd and 3rd attempt of a stop request: three attempts within about 1.25 s. */
export const DEFAULT_STOP_RETRY_DELAYS: readonly number[] = [250, 1000];

/**
 * Runs `attempt` and, while it fails with a transient error (`isTransientError`), runs it again after each
 * of `delays` (milliseconds) in turn. Resolves with the first success; rejects with the last error once the
 * delays are used up, or at once with an error that is not transient.
 */
export async function retryTransient<T>(attempt: () => Promise<T>, delays: readonly number[]): Promise<T> {
  for (let i = 0; ; i++) {
    try {
      return await attempt();
    } catch (error) {
      if (i >= delays.length || !isTransientError(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, delays[i]));
    }
  }
}

/**
 * A failure that another attempt may not meet: no response at all (`NETWORK_ERROR`), 408, 429 or a 5xx.
 * Other answers (401, 404...) are definitive.
 */
export function isTransientError(error: unknown): boolean {
  if (!ChatwireClientError.is(error)) return false;
  if (error.status === 0) return error.code === 'NETWORK_ERROR';
  return error.status === 408 || error.status === 429 || error.status >= 500;
}
