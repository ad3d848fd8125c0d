import type { TurnBus, TurnBusEvent } from './turn-hub.js';

export interface MemoryTurnBusOptions {
  /** Receives what a listener throws (the bus never lets it reach the publisher). */
  onError?: (error: unknown) => void;
}

/**
 * The in-process turn bus: events reach this process's subscribers of the chat, each listener called on its
 * own microtask, after `publish` resolved its caller's turn of the event loop.
 */
export interface MemoryTurnBus extends TurnBus {
  /** Subscriptions currently live, over every chat. */
  listenerCount(): number;
}

export function createMemoryTurnBus(options: MemoryTurnBusOptions = {}): MemoryTurnBus {
  const listeners = new Map<string, Set<(event: TurnBusEvent) => void>>();
  let closed = false;

  const deliver = (chatId: string, listener: (event: TurnBusEvent) => void, event: TurnBusEvent): void => {
    queueMicrotask(() => {
      // A subscription ended between the publish and this delivery gets nothing.
      if (!listeners.get(chatId)?.has(listener)) return;
      try {
        listener(event);
      } catch (error) {
        options.onError?.(error);
      }
    });
  };

  return {
    async publish(chatId, event) {
      if (closed) return;
      const set = listeners.get(chatId);
      if (!set) return;
      // Each delivery gets its own copy, so a listener cannot change what the others see.
      for (const listener of set) deliver(chatId, listener, { ...event });
    },
    async subscribe(chatId, listener) {
      if (closed) return async () => {};
      // A wrapper per subscription: the same function subscribed twice is two subscriptions.
      const entry = (event: TurnBusEvent): void => listener(event);
      let set = listeners.get(chatId);
      if (!set) listeners.set(chatId, (set = new Set()));
      set.add(entry);
      return async () => {
        const current = listeners.get(chatId);
        if (!current?.delete(entry)) return;
        if (current.size === 0) listeners.delete(chatId);
      };
    },
    async close() {
      closed = true;
      listeners.clear();
    },
    listenerCount() {
      let count = 0;
      for (const set of listeners.values()) count += set.size;
      return count;
    },
  };
}
