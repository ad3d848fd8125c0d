import type { LanguageModelUsage } from 'ai';
import type { Caller } from '@chatwire/storage';

/**
 * Per-user limits of turns. `admit` runs once a turn is validated, before any model call: it throws a
 * `ChatwireError` (`RATE_LIMITED` or `QUOTA_EXCEEDED`, with `details.retryAfter` in whole seconds) to refuse
 * the turn, which then stores nothing. `used` is told the tokens of every turn that was stored.
 */
export interface TurnLimits {
  admit(caller: Caller): Promise<void>;
  used?(caller: Caller, usage: LanguageModelUsage): void;
}
