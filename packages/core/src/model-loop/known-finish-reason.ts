import type { FinishReason } from 'ai';

/** A finish reason every AI SDK major's client accepts. */
export type KnownFinishReason = Exclude<FinishReason, 'unknown'>;

/**
 * The finish reason chatwire streams and stores: a provider's `unknown` (no reason sent, or the connection
 * ended first) is `other`, the value AI SDK 6 and 7 use for it (their clients reject `unknown`). So the same
 * provider bytes give the same chunks and rows whichever major's provider package read them.
 */
export function knownFinishReason(reason: FinishReason): KnownFinishReason {
  return reason === 'unknown' ? 'other' : reason;
}
