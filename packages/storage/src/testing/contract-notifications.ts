import { describe, expect, it } from 'vitest';
import { MAX_NOTIFICATION_BYTES, type DriverNotifications } from '../driver-notifications.js';
import { expectChatwireError, type ContractContext } from './contract-context.js';

/** Polls until `ready()` is true; only a generous give-up, no timing assertion. */
async function until(ready: () => boolean, what: string, giveUpMs = 10_000): Promise<void> {
  const started = Date.now();
  while (!ready()) {
    if (Date.now() - started > giveUpMs) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** A subscription that records what it receives. */
async function listen(n: DriverNotifications, channel: string) {
  const received: string[] = [];
  const unsubscribe = await n.subscribe(channel, (payload) => received.push(payload));
  return { received, unsubscribe };
}

export function describeNotifications(ctx: ContractContext): void {
  describe('capabilities', () => {
    it('are declared as booleans; notifications are present exactly when declared', () => {
      const { capabilities } = ctx.driver;
      expect(typeof capabilities.sharedLeases).toBe('boolean');
      expect(typeof capabilities.notifications).toBe('boolean');
      expect(ctx.driver.notifications !== undefined).toBe(capabilities.notifications);
    });
  });

  describe('notifications (drivers whose capabilities declare them)', () => {
    const notifications = (skip: (note: string) => never): DriverNotifications =>
      ctx.driver.capabilities.notifications && ctx.driver.notifications
        ? ctx.driver.notifications
        : skip('the driver declares no notifications');
    const channel = (label: string) => `${ctx.collection('note')}:${label}`;

    it('a published payload reaches every subscriber of the channel, and only of that channel', async (t) => {
      const n = notifications(t.skip);
      const [a, b] = [channel('a'), channel('b')];
      const first = await listen(n, a);
      const second = await listen(n, a);
      const other = await listen(n, b);
      await n.publish(b, 'for b');
      await n.publish(a, 'hello');
      await until(() => first.received.length === 1 && second.received.length === 1 && other.received.length === 1, 'delivery');
      expect(first.received).toEqual(['hello']);
      expect(second.received).toEqual(['hello']);
      expect(other.received).toEqual(['for b']);
      await Promise.all([first, second, other].map((s) => s.unsubscribe()));
    });

    it('one publisher’s payloads arrive in order', async (t) => {
      const n = notifications(t.skip);
      const c = channel('order');
      const sub = await listen(n, c);
      const sent = Array.from({ length: 20 }, (_, i) => `m${i}`);
      for (const payload of sent) await n.publish(c, payload);
      await until(() => sub.received.length === sent.length, 'all payloads');
      expect(sub.received).toEqual(sent);
      await sub.unsubscribe();
    });

    it('after unsubscribe nothing more arrives; other subscribers of the channel keep theirs; unsubscribing twice is safe', async (t) => {
      const n = notifications(t.skip);
      const c = channel('unsub');
      const leaving = await listen(n, c);
      const staying = await listen(n, c);
      await leaving.unsubscribe();
      await leaving.unsubscribe();
      await n.publish(c, 'after');
      await until(() => staying.received.length === 1, 'delivery to the remaining subscriber');
      // Published later on the same channel: once 'marker' arrived, 'after' would have too.
      const probe = await listen(n, c);
      await n.publish(c, 'marker');
      await until(() => probe.received.includes('marker'), 'marker');
      expect(leaving.received).toEqual([]);
      await staying.unsubscribe();
      await probe.unsubscribe();
      await n.publish(c, 'nobody listens'); // a channel without listeners is fine
    });

    it('any non-empty channel name works and names never collide (quotes, spaces, case, long, non-ASCII)', async (t) => {
      const n = notifications(t.skip);
      const base = channel('names');
      const names = [`${base}"; DROP TABLE x; --`, `${base} space`, `${base}UPPER`, `${base}upper`, `${base}:${'x'.repeat(300)}`, `${base}:ü😀`];
      const subs = await Promise.all(names.map((name) => listen(n, name)));
      for (const [i, name] of names.entries()) await n.publish(name, `p${i}`);
      await until(() => subs.every((s) => s.received.length === 1), 'one payload per channel');
      expect(subs.map((s) => s.received)).toEqual(names.map((_, i) => [`p${i}`]));
      await Promise.all(subs.map((s) => s.unsubscribe()));
    });

    it(`payloads up to ${MAX_NOTIFICATION_BYTES} UTF-8 bytes arrive exactly; larger or unstorable ones are VALIDATION`, async (t) => {
      const n = notifications(t.skip);
      const c = channel('payload');
      const sub = await listen(n, c);
      const fill = MAX_NOTIFICATION_BYTES - 4;
      const largest = `${'é'.repeat(Math.floor(fill / 2))}${'a'.repeat(fill % 2)}😀`; // exactly the limit in UTF-8
      const payloads = ['', '{"type":"stop","turnId":"t-1"}', 'quote \' " \\ newline \n tab \t', largest];
      for (const payload of payloads) await n.publish(c, payload);
      await until(() => sub.received.length === payloads.length, 'every payload');
      expect(sub.received).toEqual(payloads);
      await expectChatwireError(() => n.publish(c, `${largest}x`), 'VALIDATION', { field: 'payload' });
      await expectChatwireError(() => n.publish(c, 'a\u0000b'), 'VALIDATION', { field: 'payload' });
      await expectChatwireError(() => n.publish(c, 'lone \uD800'), 'VALIDATION', { field: 'payload' });
      await expectChatwireError(() => n.publish(c, 5 as never), 'VALIDATION', { field: 'payload' });
      await expectChatwireError(() => n.publish('', 'x'), 'VALIDATION', { field: 'channel' });
      await expectChatwireError(() => n.subscribe('', () => {}), 'VALIDATION', { field: 'channel' });
      await expectChatwireError(() => n.subscribe(c, 'nope' as never), 'VALIDATION', { field: 'listener' });
      await sub.unsubscribe();
    });

    it('a throwing listener does not stop the others', async (t) => {
      const n = notifications(t.skip);
      const c = channel('throw');
      const unsubscribe = await n.subscribe(c, () => {
        throw new Error('listener bug');
      });
      const sub = await listen(n, c);
      await n.publish(c, 'one');
      await n.publish(c, 'two');
      await until(() => sub.received.length === 2, 'both payloads');
      expect(sub.received).toEqual(['one', 'two']);
      await unsubscribe();
      await sub.unsubscribe();
    });

    it('the driver handed to a transaction has the same notifications', async (t) => {
      const n = notifications(t.skip);
      await ctx.driver.transaction(async (tx) => {
        expect(tx.capabilities).toEqual(ctx.driver.capabilities);
        expect(tx.notifications).toBeDefined();
      });
      expect(n).toBeDefined();
    });
  });
}
