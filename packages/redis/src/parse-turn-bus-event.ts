import type { TurnBusEvent } from '@chatwire/core';

/** The event a bus message carries, or `undefined` when it is not one (a bus never trusts its wire). */
export function parseTurnBusEvent(message: string): TurnBusEvent | undefined {
  let value: unknown;
  try {
    value = JSON.parse(message);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const event = value as Record<string, unknown>;
  if (event.type === 'stop') return { type: 'stop' };
  if (event.type === 'ended' && typeof event.turnId === 'string' && typeof event.ending === 'string') {
    return { type: 'ended', turnId: event.turnId, ending: event.ending };
  }
  return undefined;
}
