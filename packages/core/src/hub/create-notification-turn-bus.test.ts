import { createMemoryNotifications } from '@chatwire/storage/memory';
import { describe, expect, it } from 'vitest';
import { createNotificationTurnBus, turnBusChannel, type TurnBusNotifications } from './create-notification-turn-bus.js';
import type { TurnBusEvent } from './turn-hub.js';

const settle = () => new Promise((resolve) => setImmediate(resolve));

/** Notifications shared by several "processes" in memory, recording what went over the wire. */
function fakeNotifications() {
  const channels = new Map<string, Set<(payload: string) => void>>();
  const sent: Array<{ channel: string; payload: string }> = [];
  const notifications: TurnBusNotifications = {
    async publish(channel, payload) {
      sent.push({ channel, payload });
      for (const listener of channels.get(channel) ?? []) queueMicrotask(() => listener(payload));
    },
    async subscribe(channel, listener) {
      const entry = (payload: string) => listener(payload);
      let set = channels.get(channel);
      if (!set) channels.set(channel, (set = new Set()));
      set.add(entry);
      return async () => {
        set.delete(entry);
      };
    },
  };
  const listening = () => [...channels.values()].reduce((n, set) => n + set.size, 0);
  return { notifications, sent, listening };
}

describe('turnBusChannel', () => {
  it('maps any chat id to a distinct plain identifier of 46 characters', () => {
    const ids = ['c1', 'c2', '', 'x'.repeat(10_000), 'a"; DROP TABLE x; --', 'Zürich 😀', 'A\u0000B'];
    const channels = ids.map(turnBusChannel);
    for (const channel of channels) expect(channel).toMatch(/^chatwire_turn_[0-9a-f]{32}$/);
    expect(new Set(channels).size).toBe(ids.length);
    expect(turnBusChannel('c1')).toBe(turnBusChannel('c1'));
  });
});

describe('createNotificationTurnBus', () => {
  it('carries events between two buses on the same notifications, per chat, as JSON', async () => {
    const { notifications, sent } = fakeNotifications();
    const a = createNotificationTurnBus(notifications);
    const b = createNotificationTurnBus(notifications);
    const onB: TurnBusEvent[] = [];
    const onOther: TurnBusEvent[] = [];
    await b.subscribe('c1', (e) => onB.push(e));
    await b.subscribe('c2', (e) => onOther.push(e));
    await a.publish('c1', { type: 'stop' });
    await a.publish('c1', { type: 'ended', turnId: 'a1', ending: 'stopped' });
    await settle();
    expect(onB).toEqual([{ type: 'stop' }, { type: 'ended', turnId: 'a1', ending: 'stopped' }]);
    expect(onOther).toEqual([]);
    expect(sent).toEqual([
      { channel: turnBusChannel('c1'), payload: '{"type":"stop"}' },
      { channel: turnBusChannel('c1'), payload: '{"type":"ended","turnId":"a1","ending":"stopped"}' },
    ]);
  });

  it('reports payloads that are not turn events to onError and drops them', async () => {
    const { notifications } = fakeNotifications();
    const errors: unknown[] = [];
    const bus = createNotificationTurnBus(notifications, { onError: (e) => errors.push(e) });
    const got: TurnBusEvent[] = [];
    await bus.subscribe('c1', (e) => got.push(e));
    for (const payload of ['not json', '{"type":"launch"}', '{"type":"ended","turnId":1}', 'null']) {
      await notifications.publish(turnBusChannel('c1'), payload);
    }
    await notifications.publish(turnBusChannel('c1'), '{"type":"stop","extra":true}');
    await settle();
    expect(got).toEqual([{ type: 'stop' }]);
    expect(errors).toHaveLength(4);
    expect(errors[0]).toMatchObject({ code: 'VALIDATION', message: expect.stringContaining(turnBusChannel('c1')) });
  });

  it('reports a throwing listener to onError', async () => {
    const { notifications } = fakeNotifications();
    const errors: unknown[] = [];
    const bus = createNotificationTurnBus(notifications, { onError: (e) => errors.push(e) });
    await bus.subscribe('c1', () => {
      throw new Error('listener broke');
    });
    await bus.publish('c1', { type: 'stop' });
    await settle();
    expect(errors).toEqual([new Error('listener broke')]);
  });

  it('unsubscribes on the notifications object, once, and close ends every open subscription', async () => {
    const { notifications, listening } = fakeNotifications();
    const bus = createNotificationTurnBus(notifications);
    const got: TurnBusEvent[] = [];
    const first = await bus.subscribe('c1', (e) => got.push(e));
    await bus.subscribe('c2', (e) => got.push(e));
    expect(listening()).toBe(2);
    await first();
    await first();
    expect(listening()).toBe(1);
    await bus.close();
    expect(listening()).toBe(0);
    await bus.publish('c2', { type: 'stop' });
    await notifications.publish(turnBusChannel('c2'), '{"type":"stop"}');
    await settle();
    expect(got).toEqual([]);
  });

  it('passes on a failing publish or subscribe to the caller', async () => {
    const failing: TurnBusNotifications = {
      publish: () => Promise.reject(new Error('connection lost')),
      subscribe: () => Promise.reject(new Error('connection lost')),
    };
    const bus = createNotificationTurnBus(failing);
    await expect(bus.publish('c1', { type: 'stop' })).rejects.toThrow('connection lost');
    await expect(bus.subscribe('c1', () => {})).rejects.toThrow('connection lost');
  });

  it('works over the memory driver notifications, whose payload checks every driver shares', async () => {
    const notifications = createMemoryNotifications();
    const a = createNotificationTurnBus(notifications);
    const b = createNotificationTurnBus(notifications);
    const got: TurnBusEvent[] = [];
    const chatId = 'chat "Zürich" 😀 '.repeat(500);
    await b.subscribe(chatId, (e) => got.push(e));
    await a.publish(chatId, { type: 'stop' });
    await a.publish(chatId, { type: 'ended', turnId: 'a\u0000\ud800', ending: 'stopped' });
    await settle();
    expect(got).toEqual([{ type: 'stop' }, { type: 'ended', turnId: 'a\u0000\ud800', ending: 'stopped' }]);
    await b.close();
  });
});
