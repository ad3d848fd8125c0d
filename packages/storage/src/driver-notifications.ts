import { ChatwireError } from './chatwire-error.js';
import { utf8ByteLength } from './json-value.js';
import { LONE_SURROGATE } from './lone-surrogate.js';

/** Largest notification payload in UTF-8 bytes: PostgreSQL's NOTIFY takes less than 8000, every driver keeps that. */
export const MAX_NOTIFICATION_BYTES = 7999;


/**
 * Fire-and-forget messages between the processes sharing a store (for example "stop this turn").
 * Delivery is at most once: a listener gets the payloads published after its `subscribe` resolved, in
 * publish order per publisher, unless its connection was down at that moment. A publish is never part of a
 * transaction (also through `tx.notifications`): it is sent at once. Listeners must not throw
 * (a throwing listener is reported through the driver's `onError` and the others still run).
 */
export interface DriverNotifications {
  /** Sends `payload` to every current subscriber of `channel`. VALIDATION for a bad channel or payload. */
  publish(channel: string, payload: string): Promise<void>;
  /** Listens on `channel` until the returned function is called (calling it again does nothing). */
  subscribe(channel: string, listener: (payload: string) => void): Promise<() => Promise<void>>;
}

/** Any non-empty string is a channel; drivers map it to what their backend accepts. */
function checkChannel(channel: unknown): void {
  if (typeof channel !== 'string' || channel.length === 0) {
    throw new ChatwireError('VALIDATION', 'Notification channel must be a non-empty string', { details: { field: 'channel' } });
  }
}

/** The arguments of `subscribe`, checked the same way by every driver. */
export function checkSubscription(channel: unknown, listener: unknown): void {
  checkChannel(channel);
  if (typeof listener !== 'function') {
    throw new ChatwireError('VALIDATION', 'Notification listener must be a function', { details: { field: 'listener' } });
  }
}

/**
 * The payload rules every driver applies, so a payload one driver accepts none rejects: a string of at
 * most `MAX_NOTIFICATION_BYTES` UTF-8 bytes, without U+0000 or unpaired surrogates (which PostgreSQL
 * cannot carry unchanged).
 */
export function checkNotification(channel: unknown, payload: unknown): void {
  checkChannel(channel);
  const bad = (why: string) =>
    new ChatwireError('VALIDATION', `Notification payload ${why} (channel ${JSON.stringify(channel)})`, {
      details: { field: 'payload' },
    });
  if (typeof payload !== 'string') throw bad('must be a string');
  if (payload.includes('\u0000')) throw bad('cannot contain U+0000');
  if (LONE_SURROGATE.test(payload)) throw bad('cannot contain unpaired UTF-16 surrogates');
  if (utf8ByteLength(payload) > MAX_NOTIFICATION_BYTES) throw bad(`is larger than ${MAX_NOTIFICATION_BYTES} UTF-8 bytes`);
}
