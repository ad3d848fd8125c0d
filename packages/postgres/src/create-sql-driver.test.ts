import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Filter, OrderBy, StoreDriver } from '@chatwire/storage';
import { createMemoryDriver } from '@chatwire/storage/memory';
import { backends, type OpenedBackend } from './testing/test-backends.js';

/** Driver-specific behaviour the shared contract cannot force: equal timestamps, long sort keys, escaping. */
async function readAll(driver: StoreDriver, collection: string, orderBy: OrderBy, limit: number): Promise<{ ids: string[]; cursors: string[] }> {
  const ids: string[] = [];
  const cursors: string[] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = await driver.query(collection, { orderBy, limit, ...(cursor === undefined ? {} : { cursor }) });
    ids.push(...page.records.map((r) => r.recordId));
    if (page.nextCursor === null) return { ids, cursors };
    cursors.push(page.nextCursor);
    cursor = page.nextCursor;
  }
}

for (const backend of backends) {
  describe.skipIf(backend.skipReason !== '')(`SQL driver specifics on ${backend.name} ${backend.skipReason}`, () => {
    let opened: OpenedBackend;
    let records = '';
    beforeAll(async () => {
      opened = await backend.open('driver');
      await opened.driver.ready();
      records = `"${opened.schema}".chatwire_records`;
    });
    afterAll(() => opened?.cleanup());

    it('rows with the same created_at (one millisecond) keep insertion order by seq, past seq 9, both ways and across pages', async () => {
      const driver = opened.driver;
      const ids = Array.from({ length: 25 }, (_, i) => `r${i}`);
      for (const id of ids) await driver.insert('ties', { recordId: id, data: { chatId: 'c' } });
      await opened.sql.query(`UPDATE ${records} SET created_at = '2025-01-01T00:00:00.000Z' WHERE collection = 'ties'`);
      const asc = await readAll(driver, 'ties', { field: 'createdAt' }, 4);
      expect(asc.ids).toEqual(ids);
      const desc = await readAll(driver, 'ties', { field: 'createdAt', direction: 'desc' }, 4);
      expect(desc.ids).toEqual([...ids].reverse());
      const filtered = await driver.query('ties', { filter: { chatId: 'c' }, limit: 25 });
      expect(filtered.records.map((r) => r.recordId)).toEqual(ids);
    });

    it('orders by long string values (shared prefixes, ties) across pages with short cursors', async () => {
      const driver = opened.driver;
      const memory = createMemoryDriver();
      const base = 'p'.repeat(1100); // above the 1 KiB that cursors copy whole
      const values = [`${base}b`, `${base}a`, `${base}b`, 'short', `${base}\u0000`, `${base}a`, `${'p'.repeat(127)}z`, `${base}`, `${'é'.repeat(600)}`, `${'p'.repeat(900)}x`, '\u0001'.repeat(1000)];
      for (const [i, k] of values.entries()) {
        await driver.insert('long', { recordId: `r${i}`, data: { k } });
        await memory.insert('long', { recordId: `r${i}`, data: { k } });
      }
      for (const direction of ['asc', 'desc'] as const) {
        const expected = await readAll(memory, 'long', { field: 'k', direction }, 100);
        const got = await readAll(driver, 'long', { field: 'k', direction }, 2);
        expect(got.ids).toEqual(expected.ids);
        for (const cursor of got.cursors) expect(cursor.length).toBeLessThan(1600); // the access layer caps wrapped cursors at 4 KiB
      }
    });

    it('a long-string cursor whose row changed in between still pages without duplicates or errors', async () => {
      const driver = opened.driver;
      const base = 'q'.repeat(2000);
      for (let i = 0; i < 6; i++) await driver.insert('long2', { recordId: `r${i}`, data: { k: `${base}${i}` } });
      const first = await driver.query('long2', { orderBy: { field: 'k' }, limit: 3 });
      expect(first.records.map((r) => r.recordId)).toEqual(['r0', 'r1', 'r2']);
      await driver.update('long2', 'r2', { k: 'changed' });
      const rest = await driver.query('long2', { orderBy: { field: 'k' }, limit: 10, cursor: first.nextCursor as string });
      // The prefix stands in for the changed value: rows sharing it may repeat, none after it is skipped.
      const ids = rest.records.map((r) => r.recordId);
      expect(ids.slice(-3)).toEqual(['r3', 'r4', 'r5']);
      expect(ids).not.toContain('r2');
    });

    it('stores U+0000 and U+0001 in values and field names verbatim; filters and orders them like the memory driver', async () => {
      const driver = opened.driver;
      const memory = createMemoryDriver();
      const values = ['a\u0000', 'a', 'a\u0001', 'a\u0000\u0000', 'a\u00000', 'a\u0002', '\u0001', 'a\u0001\u0000b', 'a0'];
      for (const [i, v] of values.entries()) {
        const data = { v, [`key\u0000${i % 2}`]: v, nested: { [`\u0001`]: [v] } };
        const stored = await driver.insert('nul', { recordId: `r${i}`, data });
        await memory.insert('nul', { recordId: `r${i}`, data });
        expect(stored.record.data).toEqual(data);
        expect((await driver.get('nul', `r${i}`))?.data).toEqual(data);
        expect((await driver.insert('nul', { recordId: `r${i}`, data })).created).toBe(false);
      }
      for (const direction of ['asc', 'desc'] as const) {
        const expected = await readAll(memory, 'nul', { field: 'v', direction }, 100);
        expect((await readAll(driver, 'nul', { field: 'v', direction }, 2)).ids).toEqual(expected.ids);
      }
      const filters: Filter[] = [{ v: 'a\u0000' }, { v: { gt: 'a\u0000' } }, { v: { lte: 'a\u0001' } }, { 'key\u00001': 'a\u0001' }, { v: { in: ['a\u00000', 'a0'] } }];
      for (const filter of filters) {
        const q = { filter, limit: 100 };
        const ids = (d: StoreDriver) => d.query('nul', q).then((p) => p.records.map((r) => r.recordId));
        expect(await ids(driver), JSON.stringify(filter)).toEqual(await ids(memory));
      }
      const updated = await driver.update('nul', 'r0', { 'x\u0000': '\u0000' });
      expect(updated?.data['x\u0000']).toBe('\u0000');
    });

    it('updatedAt never goes below createdAt and createdAt survives updates', async () => {
      const driver = opened.driver;
      const { record } = await driver.insert('times', { recordId: 't', data: { v: 1 } });
      await opened.sql.query(`UPDATE ${records} SET created_at = created_at + interval '1 hour', updated_at = updated_at + interval '1 hour' WHERE collection = 'times'`);
      const moved = await driver.get('times', 't');
      const updated = await driver.update('times', 't', { v: 2 });
      expect(updated?.createdAt).toBe(moved?.createdAt);
      expect(updated && moved && updated.updatedAt >= moved.createdAt).toBe(true);
      expect(record.createdAt < (moved?.createdAt ?? '')).toBe(true);
    });
  });
}
