import { beforeAll, describe, expect, it } from 'vitest';
import type { Filter } from '../filter.js';
import type { RecordData } from '../record-envelope.js';
import { insertAll, queryIds, type ContractContext } from './contract-context.js';

/** Rows a..g: `s` strings (one null, one missing), `n` numbers (one is the string '10'), `b`, `j` mixed JSON. */
const ROWS: [string, RecordData][] = [
  ['a', { s: 'apple', n: 1, b: true, j: 'x' }],
  ['b', { s: 'Banana', n: 2.5, b: false, j: 3 }],
  ['c', { s: 'cherry', n: -3, j: null }],
  ['d', { s: null, n: 10, b: true, j: { k: 1 } }],
  ['e', { n: '10', b: false, j: [1] }],
  ['f', { s: '\u{1F600}', n: 0, j: true }],
  ['g', { s: '\uFFFF', n: 2, b: true, j: 'y' }],
];

/** [description, filter, ids expected in insertion order]. */
export const FILTER_CASES: [string, Filter, string[]][] = [
  ['bare value is eq (string)', { s: 'apple' }, ['a']],
  ['eq number does not match the string "10"', { n: 10 }, ['d']],
  ['eq string does not match the number 10', { n: '10' }, ['e']],
  ['eq boolean', { b: true }, ['a', 'd', 'g']],
  ['eq true does not match 1 or "true"', { j: true }, ['f']],
  ['eq number inside a mixed field', { j: { eq: 3 } }, ['b']],
  ['eq null matches null and missing', { s: null }, ['d', 'e']],
  ['eq null (operator form) on a missing field', { b: { eq: null } }, ['c', 'f']],
  ['ne value also matches missing and null', { b: { ne: true } }, ['b', 'c', 'e', 'f']],
  ['ne null means present and not null', { s: { ne: null } }, ['a', 'b', 'c', 'f', 'g']],
  ['ne scalar matches objects and arrays', { j: { ne: 'x' } }, ['b', 'c', 'd', 'e', 'f', 'g']],
  ['gt number ignores strings', { n: { gt: 1 } }, ['b', 'd', 'g']],
  ['gte number', { n: { gte: 2 } }, ['b', 'd', 'g']],
  ['lt number (negative and zero)', { n: { lt: 1 } }, ['c', 'f']],
  ['lte number', { n: { lte: 1 } }, ['a', 'c', 'f']],
  ['gt and lt together', { n: { gt: 0, lt: 10 } }, ['a', 'b', 'g']],
  ['string range by code point: "B" < "a"', { s: { lt: 'a' } }, ['b']],
  ['string gte by code point', { s: { gte: 'a' } }, ['a', 'c', 'f', 'g']],
  ['astral code point sorts above U+FFFF', { s: { gt: '\uFFFF' } }, ['f']],
  ['string range upper bound below an astral character', { s: { gte: 'cherry', lt: '\u{1F600}' } }, ['c', 'g']],
  ['string operand only matches strings', { n: { gt: '0' } }, ['e']],
  ['number operand only matches numbers in a mixed field', { j: { gt: 0 } }, ['b']],
  ['lte string in a mixed field', { j: { lte: 'x' } }, ['a']],
  ['in strings', { s: { in: ['apple', 'cherry', 'zzz'] } }, ['a', 'c']],
  ['in numbers', { n: { in: [10, 2] } }, ['d', 'g']],
  ['in with null matches missing', { b: { in: [null, false] } }, ['b', 'c', 'e', 'f']],
  ['in empty list matches nothing', { s: { in: [] } }, []],
  ['exists false: missing or null', { b: { exists: false } }, ['c', 'f']],
  ['exists true: present and not null', { j: { exists: true } }, ['a', 'b', 'd', 'e', 'f', 'g']],
  ['fields are ANDed', { b: true, n: { gt: 1 } }, ['d', 'g']],
  ['operators in one condition are ANDed', { n: { ne: 10, gte: 0, in: [0, 1, 10, 2.5] } }, ['a', 'b', 'f']],
  ['condition on a field no row has', { nothere: 'x' }, []],
  ['eq null on a field no row has matches all', { nothere: null }, ['a', 'b', 'c', 'd', 'e', 'f', 'g']],
  ['empty filter matches all', {}, ['a', 'b', 'c', 'd', 'e', 'f', 'g']],
];

export function describeFilters(ctx: ContractContext): void {
  describe('filters', () => {
    let c = '';
    beforeAll(async () => {
      c = ctx.collection('filters');
      await insertAll(
        ctx.driver,
        c,
        ROWS.map(([, data]) => data),
        ROWS.map(([id]) => id),
      );
    });

    for (const [label, filter, expected] of FILTER_CASES) {
      it(`${label}: ${JSON.stringify(filter)} → [${expected.join(', ')}]`, async () => {
        expect(await queryIds(ctx.driver, c, { filter })).toEqual(expected);
      });
    }

    it('every filter also works for deleteWhere (ne includes missing)', async () => {
      const d = ctx.collection('filters');
      await insertAll(ctx.driver, d, [{ t: 'a' }, { t: 'b' }, {}, { t: null }], ['1', '2', '3', '4']);
      expect(await ctx.driver.deleteWhere(d, { t: { ne: 'a' } })).toBe(3);
      expect(await queryIds(ctx.driver, d)).toEqual(['1']);
    });

    it('updates move rows between filter results', async () => {
      const d = ctx.collection('filters');
      await insertAll(ctx.driver, d, [{ chatId: 'x' }, { chatId: 'x' }, { chatId: 'y' }], ['1', '2', '3']);
      expect(await queryIds(ctx.driver, d, { filter: { chatId: 'x' } })).toEqual(['1', '2']);
      await ctx.driver.update(d, '1', { chatId: 'y' });
      expect(await queryIds(ctx.driver, d, { filter: { chatId: 'x' } })).toEqual(['2']);
      expect(await queryIds(ctx.driver, d, { filter: { chatId: 'y' } })).toEqual(['1', '3']);
      await ctx.driver.update(d, '1', { chatId: 'x' });
      expect(await queryIds(ctx.driver, d, { filter: { chatId: 'x' } })).toEqual(['1', '2']);
      await ctx.driver.delete(d, '2');
      expect(await queryIds(ctx.driver, d, { filter: { chatId: 'x' } })).toEqual(['1']);
    });
  });
}
