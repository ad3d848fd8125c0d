import { createTurnLimits, type TurnLimits } from '@chatwire/core/limits';
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
 * `limits`, counted in this process. Neither set: no limits. A malformed one is a CONFIGURATION error
 * naming it. For limits shared by several processes pass `createTurnLimits({ ..., redis, store })`.
 */
export function limitsFromEnv(env: Env, options: { onError?: (error: unknown) => void } = {}): { limits?: TurnLimits } {
  const turnsPerMinute = positiveInteger(env, 'CHATWIRE_TURNS_PER_MINUTE');
  const tokensPerDay = positiveInteger(env, 'CHATWIRE_TOKENS_PER_DAY');
  if (turnsPerMinute === undefined && tokensPerDay === undefined) return {};
  return { limits: createTurnLimits({ turnsPerMinute, tokensPerDay, ...options }) };
}
