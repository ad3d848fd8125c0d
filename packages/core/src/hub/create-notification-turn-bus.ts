import { createHash } from 'node:crypto';
import { ChatwireError } from '@chatwire/storage';
import { parseTurnBusEvent } from './parse-turn-bus-event.js';
import type { TurnBus, TurnBusEvent } from './turn-hub.js';

/**
 * Fire-and-forget messages between processes, as a store driver offers them (for example PostgreSQL
 * `LISTEN/NOTIFY`). Declared here by shape, so any object with these two methods serves.
 */
export interface TurnBusNotifications {
  publish(channel: string, payload: string): Promise<void>;
  subscribe(channel: string, listener: (payload: string) => void): Promise<() => Promise<void>>;
}

export interface NotificationTurnBusOptions {
  /** Receives listener errors and payloads on the chat's channel that are not turn events. */
  onError?: (error: unknown) => void;
}

const CHANNEL_PREFIX = 'chatwire_turn_';

/**
 * The channel of a chat: a fixed prefix and the first 32 hex digits of the SHA-1 of the chat id, a plain
 * identifier of 46 characters whatever the id holds (PostgreSQL channel names are identifiers of at most
 * 63 bytes).
 */
export function turnBusChannel(chatId: string): string {
  return CHANNEL_PREFIX + createHash('sha1').update(chatId, 'utf8').digest('hex').slice(0, 32);
}

/**
 * A turn bus over a notifications object: one channel per chat, each event sent as its JSON. Every
 * `subscribe` is its own subscription on the notifications object; `close` ends those still open.
 */
export function createNotificationTurnBus(
  notifications: TurnBusNotifications,
  options: NotificationTurnBusOptions = {},
): TurnBus {
  const open = new Set<() => Promise<void>>();
  let closed = false;

  const report = (error: unknown): void => {
    try {
      options.onError?.(error);
    } catch {
      // a failing error reporter must not break delivery
    }
  };

  const receive = (channel: string, payload: string, listener: (event: TurnBusEvent) => void): void => {
    let event: TurnBusEvent | undefined;
    try {
      event = parseTurnBusEvent(JSON.parse(payload));
    } catch {
      event = undefined;
    }
    if (!event) {
      report(new ChatwireError('VALIDATION', `Ignored a message on turn bus channel ${channel} that is not a turn event`));
      return;
    }
    try {
      listener(event);
    } catch (error) {
      report(error);
    }
  };

  return {
    async publish(chatId, event) {
      if (closed) return;
      await notifications.publish(turnBusChannel(chatId), JSON.stringify(event));
    },
    async subscribe(chatId, listener) {
      if (closed) return async () => {};
      const channel = turnBusChannel(chatId);
      let active = true;
      const unsubscribeInner = await notifications.subscribe(channel, (payload) => {
        if (active) receive(channel, payload, listener);
      });
      const unsubscribe = async (): Promise<void> => {
        if (!active) return;
        active = false;
        open.delete(unsubscribe);
        await unsubscribeInner();
      };
      open.add(unsubscribe);
      if (closed) await unsubscribe();
      return unsubscribe;
    },
    async close() {
      closed = true;
      const pending = [...open];
      await Promise.allSettled(pending.map((unsubscribe) => unsubscribe()));
    },
  };
}
