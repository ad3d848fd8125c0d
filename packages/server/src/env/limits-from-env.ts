import { ChatwireError } from '@chatwire/storage';

type Env = Record<string, string | undefined>;

function positiveInteger(env: Env, name: string): number | undefined {
  const value = env[name]?.trim();
  if (value === undefined || value === '') return undefined;
  const number = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(number) || number <= 0) {
    throw new ChatwireError('CONFIGURATION', `${name} must be a positive integer, got '${env[name]}'`);
  }
  return number;
}

/**
 * CHATWIRE_TURNS_PER_MINUTE and CHATWIRE_TOKENS_PER_DAY (positive integers, per user) -> the handler's
 * `turnsPerMinute` / `tokensPerDay`. The handler counts them where its other shared state is: in Redis
 * when `redis` is configured, else from the store's usage ledger (tokens, on a store shared across processes) and in this process.
 * A malformed one is a CONFIGURATION error naming it.
 */
export function limitsFromEnv(env: Env): { turnsPerMinute?: number; tokensPerDay?: number } {
  const turnsPerMinute = positiveInteger(env, 'CHATWIRE_TURNS_PER_MINUTE');
  const tokensPerDay = positiveInteger(env, 'CHATWIRE_TOKENS_PER_DAY');
  return {
    ...(turnsPerMinute === undefined ? {} : { turnsPerMinute }),
    ...(tokensPerDay === undefined ? {} : { tokensPerDay }),
  };
}
