import { ChatwireError } from '@chatwire/storage';

/**
 * The keys of a chat's turns. Every key of a chat carries the chat id as its hash tag (`{chatId}`), so
 * they share one Redis Cluster slot and one MULTI can touch them all.
 */
export interface TurnKeys {
  /** The turn's chunk log: a Redis Stream. */
  stream: string;
  /** The chat's running (or last) turn id. */
  current: string;
  /** Exists while the producing process is alive. */
  live: string;
}

export function currentTurnKey(prefix: string, chatId: string): string {
  return `${prefix}:{${chatId}}:current`;
}

export function turnKeys(prefix: string, chatId: string, turnId: string): TurnKeys {
  return {
    stream: `${prefix}:{${chatId}}:turn:${turnId}`,
    current: currentTurnKey(prefix, chatId),
    live: `${prefix}:{${chatId}}:live:${turnId}`,
  };
}

export function busChannel(prefix: string, chatId: string): string {
  return `${prefix}:{${chatId}}:bus`;
}

/** Fields of a stream entry: `d` holds SSE bytes, `c` marks the byte cap, `e` the end of the turn. */
export const DATA_FIELD = 'd';
export const CAPPED_FIELD = 'c';
export const END_FIELD = 'e';

/** A key prefix: non-empty, without braces (they would change the hash tag) or whitespace. */
export function checkKeyPrefix(prefix: string): string {
  if (typeof prefix !== 'string' || !/^[^\s{}]{1,100}$/.test(prefix)) {
    throw new ChatwireError('CONFIGURATION', 'Redis keyPrefix must be 1 to 100 characters without braces or whitespace');
  }
  return prefix;
}
