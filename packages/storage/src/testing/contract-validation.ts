import { beforeAll, describe, expect, it } from 'vitest';
import type { CollectionDefinition } from '../collection-definition.js';
import type { RecordStore } from '../create-record-store.js';
import type { RecordAccess } from '../record-access.js';
import { createRecordStore } from '../create-record-store.js';
import { expectChatwireError, type ContractContext } from './contract-context.js';

type Case = [label: string, field: string | undefined, run: (a: RecordAccess, c: string, other: string) => Promise<unknown>];

const big = 'x'.repeat(3000);
const VALID = { title: 'ok', userId: 'u1' };

/** Every bad input the access layer must reject with VALIDATION, naming collection and field. */
export const BAD_INPUT_CASES: Case[] = [
  ['unknown collection (create)', undefined, (a) => a.create('no-such-collection', VALID)],
  ['unknown collection (query)', undefined, (a) => a.query('no-such-collection')],
  ['unknown collection (get)', undefined, (a) => a.get('no-such-collection', 'r1')],
  ['data is not an object', undefined, (a, c) => a.create(c, [] as never)],
  ['data is null', undefined, (a, c) => a.create(c, null as never)],
  ['unknown field in data', 'nope', (a, c) => a.create(c, { ...VALID, nope: 1 })],
  ['string field given a number', 'title', (a, c) => a.create(c, { ...VALID, title: 5 })],
  ['number field given a string', 'score', (a, c) => a.create(c, { ...VALID, score: '5' })],
  ['number field given NaN', 'score', (a, c) => a.create(c, { ...VALID, score: Number.NaN })],
  ['number field given Infinity', 'score', (a, c) => a.create(c, { ...VALID, score: Infinity })],
  ['boolean field given "true"', 'done', (a, c) => a.create(c, { ...VALID, done: 'true' })],
  ['object field given an array', 'meta', (a, c) => a.create(c, { ...VALID, meta: [] })],
  ['array field given an object', 'tags', (a, c) => a.create(c, { ...VALID, tags: {} })],
  ['json field given a function', 'extra', (a, c) => a.create(c, { ...VALID, extra: () => 1 })],
  ['json field given a Date', 'extra', (a, c) => a.create(c, { ...VALID, extra: new Date() })],
  ['nested non-JSON value', 'meta', (a, c) => a.create(c, { ...VALID, meta: { when: BigInt(1) } })],
  ['missing required field on create', 'title', (a, c) => a.create(c, { userId: 'u1' })],
  ['required field null on create', 'title', (a, c) => a.create(c, { ...VALID, title: null })],
  ['string longer than maxLength', 'code', (a, c) => a.create(c, { ...VALID, code: 'abcdefghijk' })],
  ['value larger than maxValueBytes', 'title', (a, c) => a.create(c, { ...VALID, title: big })],
  ['record larger than maxRecordBytes', undefined, (a, c) => a.create(c, { ...VALID, title: big.slice(0, 1500), extra: big.slice(0, 1500), meta: { t: big.slice(0, 1500) } })],
  ['recordId with a space', 'recordId', (a, c) => a.create(c, VALID, { recordId: 'a b' })],
  ['recordId empty', 'recordId', (a, c) => a.get(c, '')],
  ['recordId too long', 'recordId', (a, c) => a.get(c, 'x'.repeat(129))],
  ['recordId with a slash', 'recordId', (a, c) => a.update(c, '../etc', { title: 'x' })],
  ['recordId not a string', 'recordId', (a, c) => a.delete(c, 5 as never)],
  ['unknown field in patch', 'nope', (a, c) => a.update(c, 'seed', { nope: 1 })],
  ['wrong type in patch', 'score', (a, c) => a.update(c, 'seed', { score: 'high' })],
  ['required field set to null in patch', 'title', (a, c) => a.update(c, 'seed', { title: null })],
  ['patch record too large', undefined, (a, c) =>
    a.update(c, 'seed', { extra: big.slice(0, 1500), meta: { t: big.slice(0, 1500) }, tags: [big.slice(0, 1500)] })],
  ['unknown field in filter', 'nope', (a, c) => a.query(c, { filter: { nope: 1 } })],
  ['unknown filter operator', 'score', (a, c) => a.query(c, { filter: { score: { like: 1 } as never } })],
  ['empty filter condition', 'score', (a, c) => a.query(c, { filter: { score: {} } })],
  ['bare array in filter', 'tags', (a, c) => a.query(c, { filter: { tags: ['a'] as never } })],
  ['eq operand of the wrong type', 'score', (a, c) => a.query(c, { filter: { score: 'high' } })],
  ['gt operand boolean', 'score', (a, c) => a.query(c, { filter: { score: { gt: true as never } } })],
  ['gt string operand on a number field', 'score', (a, c) => a.query(c, { filter: { score: { gt: '1' } } })],
  ['range operator on a boolean field', 'done', (a, c) => a.query(c, { filter: { done: { lt: 1 } } })],
  ['in operand not an array', 'title', (a, c) => a.query(c, { filter: { title: { in: 'a' as never } } })],
  ['in element of the wrong type', 'title', (a, c) => a.query(c, { filter: { title: { in: ['a', 1] } } })],
  ['exists operand not a boolean', 'title', (a, c) => a.query(c, { filter: { title: { exists: 1 as never } } })],
  ['NaN operand', 'score', (a, c) => a.query(c, { filter: { score: { gte: Number.NaN } } })],
  ['filter is not an object', undefined, (a, c) => a.query(c, { filter: 'x' as never })],
  ['limit 0', 'limit', (a, c) => a.query(c, { limit: 0 })],
  ['limit above maxQueryLimit', 'limit', (a, c) => a.query(c, { limit: 201 })],
  ['limit not an integer', 'limit', (a, c) => a.query(c, { limit: 1.5 })],
  ['limit negative', 'limit', (a, c) => a.query(c, { limit: -1 })],
  ['limit as a string', 'limit', (a, c) => a.query(c, { limit: '10' as never })],
  ['orderBy unknown field', 'nope', (a, c) => a.query(c, { orderBy: { field: 'nope' } })],
  ['orderBy on an object field', 'meta', (a, c) => a.query(c, { orderBy: { field: 'meta' } })],
  ['orderBy bad direction', 'orderBy', (a, c) => a.query(c, { orderBy: { field: 'title', direction: 'up' as never } })],
  ['malformed cursor', 'cursor', (a, c) => a.query(c, { cursor: 'garbage!' })],
  ['cursor that is valid base64url but not ours', 'cursor', (a, c) => a.query(c, { cursor: 'eyJ4IjoxfQ' })],
  ['cursor from another filter', 'cursor', async (a, c) => {
    const page = await a.query(c, { limit: 1 });
    return a.query(c, { limit: 1, filter: { title: 'ok' }, cursor: page.nextCursor as string });
  }],
  ['cursor from another order', 'cursor', async (a, c) => {
    const page = await a.query(c, { limit: 1 });
    return a.query(c, { limit: 1, orderBy: { field: 'title' }, cursor: page.nextCursor as string });
  }],
  ['cursor from another collection', 'cursor', async (a, c, other) => {
    const page = await a.query(other, { limit: 1 });
    return a.query(c, { limit: 1, cursor: page.nextCursor as string });
  }],
  ['deleteWhere without conditions', undefined, (a, c) => a.deleteWhere(c, {})],
];

function definition(name: string): CollectionDefinition {
  return {
    name,
    columns: [
      { name: 'title', type: 'string', required: true },
      { name: 'userId', type: 'string' },
      { name: 'code', type: 'string', maxLength: 10 },
      { name: 'score', type: 'number' },
      { name: 'done', type: 'boolean' },
      { name: 'meta', type: 'object' },
      { name: 'tags', type: 'array' },
      { name: 'extra', type: 'json' },
    ],
    rules: { read: true, create: true, update: true, delete: true },
  };
}

export function describeValidation(ctx: ContractContext): void {
  describe('bad input is VALIDATION, never a crash or a partial write', () => {
    let store: RecordStore;
    let c = '';
    let other = '';
    beforeAll(async () => {
      c = ctx.collection('valid');
      other = ctx.collection('valid');
      store = createRecordStore({ driver: ctx.driver, collections: [definition(c), definition(other)], maxValueBytes: 2000, maxRecordBytes: 4000 });
      for (const name of [c, other]) {
        await store.asServer().create(name, { title: 'ok', userId: 'u1' }, { recordId: 'seed' });
        await store.asServer().create(name, { title: 'ok', userId: 'u1' }, { recordId: 'seed2' });
      }
    });

    for (const [label, field, run] of BAD_INPUT_CASES) {
      it(`${label} → VALIDATION${field ? ` naming "${field}"` : ''}`, async () => {
        const callers = label.startsWith('deleteWhere') ? [store.asServer()] : [store.asServer(), store.asCaller({ userId: 'u1' })];
        for (const access of callers) {
          const error = await expectChatwireError(() => run(access, c, other), 'VALIDATION');
          const collection = label.startsWith('unknown collection') ? 'no-such-collection' : c;
          expect(error.details?.collection ?? collection).toBe(collection);
          expect(error.message).toContain(collection);
          if (field) expect(error.details?.field).toBe(field);
        }
      });
    }

    it('after every bad input, the collection still holds exactly the seed rows, unchanged', async () => {
      const page = await store.asServer().query(c);
      expect(page.records.map((r) => [r.recordId, r.data])).toEqual([
        ['seed', { title: 'ok', userId: 'u1' }],
        ['seed2', { title: 'ok', userId: 'u1' }],
      ]);
    });
  });
}
