import { describe, expect, it } from 'vitest';
import { createMemoryDriver } from '../memory/index.js';
import { withFaults } from './with-faults.js';

describe('withFaults', () => {
  it('failNext fails exactly n matching calls before they reach the driver', async () => {
    const driver = withFaults(createMemoryDriver());
    driver.failNext(2, { op: 'insert', collection: 'ai-messages' });
    await driver.insert('ai-chats', { recordId: 'c', data: {} });
    await expect(driver.insert('ai-messages', { recordId: 'm', data: {} })).rejects.toMatchObject({ code: 'INTERNAL' });
    await expect(driver.insert('ai-messages', { recordId: 'm', data: {} })).rejects.toThrow(/injected fault: insert on "ai-messages"/);
    expect(await driver.get('ai-messages', 'm')).toBeNull();
    expect((await driver.insert('ai-messages', { recordId: 'm', data: {} })).created).toBe(true);
    expect(driver.calls.insert).toBe(4);
    expect(driver.callCount('insert', 'ai-messages')).toBe(3);
    expect(driver.log.map((e) => e.outcome)).toEqual(['ok', 'injected', 'injected', 'ok', 'ok']);
  });

  it("when: 'after' writes, then fails (a lost acknowledgement), with a custom error", async () => {
    const driver = withFaults(createMemoryDriver());
    const error = new Error('connection reset');
    driver.failNext(1, { op: 'insert', when: 'after', error });
    await expect(driver.insert('t', { recordId: 'r', data: { v: 1 } })).rejects.toBe(error);
    expect((await driver.insert('t', { recordId: 'r', data: { v: 1 } })).created).toBe(false);
  });

  it('failAlways fails until reset; reset zeroes counters', async () => {
    const driver = withFaults(createMemoryDriver());
    driver.failAlways('query');
    for (let i = 0; i < 3; i++) await expect(driver.query('t', { limit: 1 })).rejects.toThrow();
    driver.reset();
    expect(driver.calls.query).toBe(0);
    expect((await driver.query('t', { limit: 1 })).records).toEqual([]);
  });

  it('delay holds calls of one operation', async () => {
    const driver = withFaults(createMemoryDriver());
    driver.delay(30, 'get');
    const order: string[] = [];
    await Promise.all([
      driver.get('t', 'x').then(() => order.push('get')),
      driver.query('t', { limit: 1 }).then(() => order.push('query')),
    ]);
    expect(order).toEqual(['query', 'get']);
  });

  it('faults apply inside transactions, and the driver rolls back', async () => {
    const driver = withFaults(createMemoryDriver());
    driver.failNext(1, { op: 'update' });
    await expect(
      driver.transaction?.(async (tx) => {
        await tx.insert('t', { recordId: 'a', data: {} });
        await tx.update('t', 'a', { v: 1 });
      }),
    ).rejects.toThrow(/injected/);
    expect(await driver.get('t', 'a')).toBeNull();
    expect(driver.calls.transaction).toBe(1);
    expect(driver.leases).toBeDefined();
  });

  it('forwards capabilities, leases and notifications, inside transactions too', async () => {
    const inner = createMemoryDriver();
    const driver = withFaults(inner);
    expect(driver.capabilities).toBe(inner.capabilities);
    expect(driver.leases).toBe(inner.leases);
    expect(driver.notifications).toBe(inner.notifications);
    const lease = await driver.leases.acquire('chat', { ttlMs: 60_000 });
    const held = await driver.transaction(async (tx) => {
      expect(tx.capabilities).toBe(inner.capabilities);
      expect(tx.notifications).toBe(inner.notifications);
      return tx.leases.holds('chat', lease?.holder ?? '');
    });
    expect(held).toBe(true);
  });
});
