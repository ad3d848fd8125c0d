import { checkNotification, checkSubscription, type DriverNotifications } from '../driver-notifications.js';

export interface MemoryNotificationsOptions {
  /** Receives what a listener threw (the other listeners still run). Default: ignored. */
  onError?: (error: unknown) => void;
}

interface Subscription {
  listener: (payload: string) => void;
}

/**
 * In-process notifications: a payload reaches the listeners subscribed when it was published, after the
 * current call stack (as it would over a network). A channel without listeners keeps nothing.
 */
export function createMemoryNotifications(options: MemoryNotificationsOptions = {}): DriverNotifications {
  const channels = new Map<string, Set<Subscription>>();
  const report = (error: unknown) => {
    try {
      options.onError?.(error);
    } catch {
      // A throwing onError must not break delivery to the other listeners.
    }
  };

  return {
    async publish(channel, payload) {
      checkNotification(channel, payload);
      const subscriptions = channels.get(channel);
      if (!subscriptions) return;
      for (const subscription of [...subscriptions]) {
        queueMicrotask(() => {
          if (!subscriptions.has(subscription)) return; // unsubscribed in between
          try {
            subscription.listener(payload);
          } catch (error) {
            report(error);
          }
        });
      }
    },
    async subscribe(channel, listener) {
      checkSubscription(channel, listener);
      const subscription: Subscription = { listener };
      let subscriptions = channels.get(channel);
      if (!subscriptions) channels.set(channel, (subscriptions = new Set()));
      subscriptions.add(subscription);
      return async () => {
        const current = channels.get(channel);
        if (!current?.delete(subscription)) return;
        if (current.size === 0) channels.delete(channel);
      };
    },
  };
}
