import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChatwireError } from '@chatwire/storage';
import { backends, type OpenedBackend } from './testing/test-backends.js';

/**
 * No input changes a statement: SQL fragments, quotes, placeholders and control characters used as field
 * names, values, record ids and collection names are stored and returned verbatim; what PostgreSQL
 * cannot hold is a typed ChatwireError, never a raw database error.
 */
const HOSTILE: [label: string, text: string][] = [
  ['quote, statement break and comment', "x'); DROP TABLE y; --"],
  ['double-quoted identifier break', '"; DROP SCHEMA public CASCADE; --'],
  ['always-true predicate', "' OR '1'='1"],
  ['closing parenthesis and OR', ') OR true --'],
  ['placeholder', '$1'],
  ['dollar quoting', '$$; DELETE FROM chatwire_records; $$'],
  ['question mark (jsonb ? operator)', '?'],
  ['json path operators', "data->>'chatId'"],
  ['jsonb path syntax', '{a,b}'],
  ['LIKE wildcards', '%_'],
  ['backslashes', '\\\\x00\\'],
  ['NUL byte inside SQL', "\u0000'); DELETE FROM chatwire_records; --"],
  ['U+0001 (the escape character)', '\u00010\u0001'],
  ['newlines and tabs', 'a\nb\r\tc'],
  ['emoji and right-to-left text', '😀 שלום \u202E'],
  ['unicode escape text', '\\u0000'],
  ['empty string', ''],
  ['100 KB string', "'; --".repeat(20_000)],
];

const ID_SAFE = HOSTILE.filter(([, text]) => !text.includes('\u0000') && text !== '' && text.length < 1000);

for (const backend of backends) {
  describe.skipIf(backend.skipReason !== '')(`hostile input on ${backend.name} ${backend.skipReason}`, () => {
    let opened: OpenedBackend;
    const tablesBefore: string[] = [];
    beforeAll(async () => {
      opened = await backend.open('hostile');
      await opened.driver.insert('canary', { recordId: 'keep', data: { v: 1 } });
      // A table named like the injected statements' targets.
      await opened.sql.query(`CREATE TABLE "${opened.schema}".y (id int)`);
      await opened.sql.query(`INSERT INTO "${opened.schema}".y VALUES (1)`);
      const tables = await opened.sql.query<{ name: string }>(
        `SELECT table_schema || '.' || table_name AS name FROM information_schema.tables WHERE table_schema NOT IN ('pg_catalog', 'information_schema') ORDER BY 1`,
      );
      tablesBefore.push(...tables.rows.map((r) => r.name));
    });
    afterAll(() => opened?.cleanup());

    for (const [label, text] of HOSTILE) {
      it(`as a field name and a value, round trip, filter, order, update, deleteWhere: ${label}`, async () => {
        const driver = opened.driver;
        const c = `hostile-${HOSTILE.findIndex(([l]) => l === label)}`;
        const data = { [text]: text, other: text, n: 1 };
        const { record } = await driver.insert(c, { recordId: 'a', data });
        await driver.insert(c, { recordId: 'b', data: { [text]: `${text}!`, n: 2 } });
        expect(record.data).toEqual(data);
        expect((await driver.get(c, 'a'))?.data).toEqual(data);
        const ids = async (filter: Record<string, unknown>) =>
          (await driver.query(c, { filter: filter as never, limit: 10 })).records.map((r) => r.recordId);
        expect(await ids({ [text]: text })).toEqual(['a']);
        expect(await ids({ other: text })).toEqual(['a']);
        expect(await ids({ [text]: { ne: text } })).toEqual(['b']);
        expect(await ids({ [text]: { gt: text } })).toEqual(['b']);
        expect(await ids({ [text]: { in: [text, 'zzz'] } })).toEqual(['a']);
        expect(await ids({ [text]: { exists: true } })).toEqual(['a', 'b']);
        const desc = await driver.query(c, { orderBy: { field: text, direction: 'desc' }, limit: 1 });
        expect(desc.records.map((r) => r.recordId)).toEqual(['b']);
        const next = await driver.query(c, { orderBy: { field: text, direction: 'desc' }, limit: 1, cursor: desc.nextCursor as string });
        expect(next.records.map((r) => r.recordId)).toEqual(['a']);
        expect((await driver.update(c, 'a', { [text]: `${text}?` }))?.data[text]).toBe(`${text}?`);
        expect(await driver.deleteWhere(c, { [text]: `${text}?` })).toBe(1);
        expect(await ids({})).toEqual(['b']);
      });
    }

    for (const [label, text] of ID_SAFE) {
      it(`as a collection name, record id and lease key, verbatim: ${label}`, async () => {
        const driver = opened.driver;
        const { record } = await driver.insert(text, { recordId: text, data: { v: text } });
        expect(record.recordId).toBe(text);
        expect((await driver.get(text, text))?.data).toEqual({ v: text });
        expect((await driver.query(text, { limit: 5 })).records.map((r) => r.recordId)).toEqual([text]);
        expect(await driver.delete(text, text)).toBe(true);
        const lease = await driver.leases.acquire(text, { ttlMs: 10_000 });
        expect(lease).not.toBeNull();
        expect(await driver.leases.acquire(text, { ttlMs: 10_000 })).toBeNull();
        await lease?.release();
      });
    }

    it('rejects NUL in collection names and record ids with VALIDATION naming them', async () => {
      const driver = opened.driver;
      const cases: [() => Promise<unknown>, string][] = [
        [() => driver.insert('c\u0000', { data: {} }), 'collection name'],
        [() => driver.insert('c', { recordId: 'a\u0000b', data: {} }), 'record id'],
        [() => driver.get('c', '\u0000'), 'record id'],
        [() => driver.update('c', "\u0000'--", {}), 'record id'],
        [() => driver.delete('c', '\u0000'), 'record id'],
        [() => driver.query('c\u0000', { limit: 1 }), 'collection name'],
      ];
      for (const [run, named] of cases) {
        const error = await run().catch((e: unknown) => e);
        expect(ChatwireError.is(error, 'VALIDATION'), String(error)).toBe(true);
        expect((error as Error).message).toContain(named);
      }
    });

    it('rejects unpaired surrogates and non-JSON numbers with VALIDATION naming the field', async () => {
      const driver = opened.driver;
      const cases: [() => Promise<unknown>, string][] = [
        [() => driver.insert('s', { data: { title: 'a\uD800b' } }), '"title"'],
        [() => driver.insert('s', { data: { ['k\uDC00']: 1 } }), 'k'],
        [() => driver.insert('s', { data: { deep: { list: [1, Number.NaN] } } }), '"deep.list[1]"'],
        [() => driver.insert('s', { data: { n: Infinity } }), '"n"'],
        [() => driver.update('s', 'x', { big: BigInt(1) as never }), '"big"'],
        [() => driver.query('s', { filter: { title: 'a\uD800' }, limit: 1 }), '"title"'],
        [() => driver.query('s', { orderBy: { field: '\uDFFF' }, limit: 1 }), 'order field'],
      ];
      for (const [run, named] of cases) {
        const error = await run().catch((e: unknown) => e);
        expect(ChatwireError.is(error, 'VALIDATION'), String(error)).toBe(true);
        expect((error as Error).message).toContain(named);
      }
      expect((await driver.query('s', { limit: 10 })).records).toEqual([]);
    });

    it('stores a 5 MB value verbatim', async () => {
      const huge = randomBytes(3_750_000).toString('base64');
      await opened.driver.insert('huge', { recordId: 'h', data: { content: huge } });
      expect((await opened.driver.get('huge', 'h'))?.data.content).toBe(huge);
    });

    it('an indexed value or record id too large for a btree index is VALIDATION, not a database error', async () => {
      const driver = opened.driver;
      const big = randomBytes(300_000).toString('base64'); // incompressible
      for (const run of [
        () => driver.insert('ai-messages', { data: { chatId: big } }),
        () => driver.insert('ai-messages', { recordId: big, data: {} }),
      ]) {
        const error = await run().catch((e: unknown) => e);
        expect(ChatwireError.is(error, 'VALIDATION'), String(error)).toBe(true);
        expect((error as ChatwireError).details?.collection).toBe('ai-messages');
      }
    });

    it('rejects a forged cursor with VALIDATION', async () => {
      const driver = opened.driver;
      const forge = (payload: unknown) => Buffer.from(JSON.stringify(payload)).toString('base64url');
      const forged = [
        'garbage!',
        forge({ o: 'createdAt', d: 'asc', t: "2020-01-01'); DROP TABLE y; --", s: '1' }),
        forge({ o: 'createdAt', d: 'asc', t: '2020-01-01T00:00:00.000Z', s: '1; DROP TABLE y' }),
        forge({ o: 'k', d: 'asc', r: 1, v: 5, s: '1' }),
        forge({ o: 'k', d: 'asc', r: 0, v: '1) OR (1=1', s: '1' }),
        forge({ o: 'k', d: 'asc', r: 9, s: '1' }),
        forge({ o: 'k', d: 'desc', r: 1, v: 'a', s: '1' }),
      ];
      for (const cursor of forged) {
        const error = await driver.query('canary', { orderBy: { field: 'k' }, limit: 1, cursor }).catch((e: unknown) => e);
        expect(ChatwireError.is(error, 'VALIDATION'), `${cursor}: ${String(error)}`).toBe(true);
      }
      // A well-formed cursor with a hostile string value is just a value (the canary row has no `k`,
      // so it sorts after every string).
      const ok = forge({ o: 'k', d: 'asc', r: 1, v: "'); DROP TABLE y; --", s: '1' });
      const page = await driver.query('canary', { orderBy: { field: 'k' }, limit: 1, cursor: ok });
      expect(page.records.map((r) => r.recordId)).toEqual(['keep']);
    });

    it('after all of the above, every table and the canary rows are intact', async () => {
      const tables = await opened.sql.query<{ name: string }>(
        `SELECT table_schema || '.' || table_name AS name FROM information_schema.tables WHERE table_schema NOT IN ('pg_catalog', 'information_schema') ORDER BY 1`,
      );
      expect(tables.rows.map((r) => r.name)).toEqual(tablesBefore);
      expect((await opened.sql.query(`SELECT id FROM "${opened.schema}".y`)).rows).toEqual([{ id: 1 }]);
      expect((await opened.driver.get('canary', 'keep'))?.data).toEqual({ v: 1 });
    });
  });
}
