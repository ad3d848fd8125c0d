import type { Caller } from '@chatwire/storage';
import { ChatwireError } from '@chatwire/storage';

/** A user's limits; a missing or null field means no such limit. */
export interface LimitValues {
  /** Turns a user may start per minute (a fixed one-minute window). */
  turnsPerMinute?: number | null;
  /** Tokens (the turn rows' `usage.total`) a user may spend per UTC day. */
  tokensPerDay?: number | null;
}

/** Per-user limits (plans, roles): each field given replaces the default, `null` lifts that limit. */
export type LimitsFor = (caller: Caller) => LimitValues | null | undefined | Promise<LimitValues | null | undefined>;

/** A limit value: a positive integer, or null/undefined for none. Anything else is a CONFIGURATION error. */
export function checkLimit(name: string, value: unknown): number | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) {
    throw new ChatwireError('CONFIGURATION', `${name} must be a positive integer, got ${JSON.stringify(value)}`);
  }
  return value;
}

/** The caller's effective limits: the defaults, overridden field by field by `limitsFor`. */
export async function effectiveLimits(
  defaults: { turnsPerMinute: number | null; tokensPerDay: number | null },
  limitsFor: LimitsFor | undefined,
  caller: Caller,
): Promise<{ turnsPerMinute: number | null; tokensPerDay: number | null }> {
  if (!limitsFor) return defaults;
  const own = (await limitsFor(caller)) ?? {};
  return {
    turnsPerMinute: 'turnsPerMinute' in own ? checkLimit('limitsFor().turnsPerMinute', own.turnsPerMinute) : defaults.turnsPerMinute,
    tokensPerDay: 'tokensPerDay' in own ? checkLimit('limitsFor().tokensPerDay', own.tokensPerDay) : defaults.tokensPerDay,
  };
}
