import { describe, expect, it } from 'vitest';
import { createMemoryTurnBus } from './create-memory-turn-bus.js';
import type { TurnBusEvent } from './turn-hub.js';

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('createMemoryTurnBus', () => {
  it('delivers an event to every subscriber of that chat only', async () => {
    const bus = createMemoryTurnBus();
    const a: TurnBusEvent[] = [];
    const b: TurnBusEvent[] = [];
    const other: TurnBusEvent[] = [];
    await bus.subscribe('c1', (e) => a.push(e));
    await bus.subscribe('c1', (e) => b.push(e));
    await bus.subscribe('c2', (e) => other.push(e));
    await bus.publish('c1', { type: 'stop' });
    await bus.publish('c1', { type: 'ended', turnId: 'a1', ending: 'stopped' });
    await settle();
    expect(a).toEqual([{ type: 'stop' }, { type: 'ended', turnId: 'a1', ending: 'stopped' }]);
    expect(b).toEqual(a);
    expect(other).toEqual([]);
  });

  it('stops delivering after unsubscribe, even for an event published just before', async () => {
    const bus = createMemoryTurnBus();
    const got: TurnBusEvent[] = [];
    const unsubscribe = await bus.subscribe('c1', (e) => got.push(e));
    expect(bus.listenerCount()).toBe(1);
    const published = bus.publish('c1', { type: 'stop' });
    await unsubscribe();
    await published;
    await unsubscribe();
    await bus.publish('c1', { type: 'stop' });
    await settle();
    expect(got).toEqual([]);
    expect(bus.listenerCount()).toBe(0);
  });

  it('treats the same listener subscribed twice as two subscriptions', async () => {
    const bus = createMemoryTurnBus();
    const got: TurnBusEvent[] = [];
    const listener = (e: TurnBusEvent) => got.push(e);
    const first = await bus.subscribe('c1', listener);
    await bus.subscribe('c1', listener);
    await first();
    await bus.publish('c1', { type: 'stop' });
    await settle();
    expect(got).toEqual([{ type: 'stop' }]);
  });

  it('reports a throwing listener to onError and still delivers to the others', async () => {
    const errors: unknown[] = [];
    const bus = createMemoryTurnBus({ onError: (e) => errors.push(e) });
    const got: TurnBusEvent[] = [];
    await bus.subscribe('c1', () => {
      throw new Error('listener broke');
    });
    await bus.subscribe('c1', (e) => got.push(e));
    await expect(bus.publish('c1', { type: 'stop' })).resolves.toBeUndefined();
    await settle();
    expect(got).toEqual([{ type: 'stop' }]);
    expect(errors).toEqual([new Error('listener broke')]);
  });

  it('delivers nothing after close', async () => {
    const bus = createMemoryTurnBus();
    const got: TurnBusEvent[] = [];
    await bus.subscribe('c1', (e) => got.push(e));
    await bus.close();
    await bus.publish('c1', { type: 'stop' });
    await bus.subscribe('c1', (e) => got.push(e));
    await settle();
    expect(got).toEqual([]);
  });
});
