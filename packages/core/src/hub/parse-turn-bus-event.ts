import type { TurnBusEvent } from './turn-hub.js';

/** The event a bus payload carries, or `undefined` when it is not one (a bus never trusts its wire). */
export function parseTurnBusEvent(value: unknown): TurnBusEvent | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const event = value as Record<string, unknown>;
  if (event.type === 'stop') return { type: 'stop' };
  if (event.type === 'ended' && typeof event.turnId === 'string' && typeof event.ending === 'string') {
    return { type: 'ended', turnId: event.turnId, ending: event.ending };
  }
  return undefined;
}
