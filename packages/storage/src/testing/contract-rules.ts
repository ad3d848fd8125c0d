import { describe, expect, it } from 'vitest';
import type { CollectionDefinition, CollectionRules } from '../collection-definition.js';
import type { RecordAccess } from '../record-access.js';
import { expectChatwireError, outcome, type ContractContext } from './contract-context.js';
import { ACTOR_CALLERS, RULE_ACTORS, RULE_MATRIX, RULE_VALUES, type RuleOperation, type RuleOutcome } from './rule-matrix.js';

function definition(name: string, rules: CollectionRules): CollectionDefinition {
  return {
    name,
    columns: [
      { name: 'userId', type: 'string', required: true },
      { name: 'title', type: 'string' },
    ],
    rules,
  };
}

const ALL_TRUE: CollectionRules = { read: true, create: true, update: true, delete: true };

async function perform(op: RuleOperation, access: RecordAccess, c: string): Promise<RuleOutcome> {
  const run = async (): Promise<RuleOutcome> => {
    switch (op) {
      case 'read':
        expect((await access.get(c, 'row')).recordId).toBe('row');
        return 'OK';
      case 'query': {
        const ids = (await access.query(c)).records.map((r) => r.recordId);
        if (ids.length === 0) return 'EMPTY';
        expect(ids).toEqual(['row']);
        return 'OK';
      }
      case 'create':
        expect((await access.create(c, { userId: 'alice', title: 'new' }, { recordId: 'created' })).recordId).toBe('created');
        return 'OK';
      case 'update':
        expect((await access.update(c, 'row', { title: 'changed' })).data.title).toBe('changed');
        return 'OK';
      case 'delete':
        await access.delete(c, 'row');
        return 'OK';
    }
  };
  let result: RuleOutcome = 'OK';
  const code = await outcome(async () => {
    result = await run();
  });
  return code === 'OK' ? result : (code as RuleOutcome);
}

export function describeRules(ctx: ContractContext): void {
  describe('rule matrix', () => {
    for (const [kind, op, outcomes] of RULE_MATRIX) {
      RULE_ACTORS.forEach((actor, i) => {
        const expected = outcomes[i] as RuleOutcome;
        it(`rule ${kind} × ${op} × ${actor} → ${expected}`, async () => {
          const c = ctx.collection(`rule${kind}${op}`);
          const ruleKey = op === 'query' ? 'read' : op;
          const store = ctx.store([definition(c, { ...ALL_TRUE, [ruleKey]: RULE_VALUES[kind] })]);
          const server = store.asServer();
          await server.create(c, { userId: 'alice', title: 'seed' }, { recordId: 'row' });
          const access = actor === 'server' ? server : store.asCaller(ACTOR_CALLERS[actor]);
          expect(await perform(op, access, c)).toBe(expected);
          // The side effect happened exactly when the operation was allowed.
          const ok = expected === 'OK';
          const row = await server.find(c, 'row');
          if (op === 'update') expect(row?.data.title).toBe(ok ? 'changed' : 'seed');
          if (op === 'delete') expect(row === null).toBe(ok);
          if (op === 'create') expect((await server.find(c, 'created')) !== null).toBe(ok);
        });
      });
    }
  });

  describe('ownership', () => {
    const ownStore = (c: string) =>
      ctx.store([definition(c, { read: 'own', create: 'own', update: 'own', delete: 'own' })]);

    it("'own' create fills the owner field from the caller when it is absent", async () => {
      const c = ctx.collection('own');
      const record = await ownStore(c).asCaller({ userId: 'alice' }).create(c, { title: 't' });
      expect(record.data).toEqual({ title: 't', userId: 'alice' });
    });

    it("'own' read ANDs the owner into every filter: a filter for other owners yields nothing", async () => {
      const c = ctx.collection('own');
      const store = ownStore(c);
      for (const userId of ['alice', 'bob', 'bob']) await store.asServer().create(c, { userId, title: userId });
      const alice = store.asCaller({ userId: 'alice' });
      const ids = async (filter: Record<string, unknown>) => (await alice.query(c, { filter: filter as never })).records.length;
      expect(await ids({})).toBe(1);
      expect(await ids({ userId: { ne: 'alice' } })).toBe(0);
      expect(await ids({ userId: 'bob' })).toBe(0);
      expect(await ids({ userId: { in: ['bob', 'carol'] } })).toBe(0);
      expect(await ids({ userId: { exists: false } })).toBe(0);
      expect(await ids({ userId: { in: ['alice', 'bob'] } })).toBe(1);
      expect(await ids({ title: 'bob' })).toBe(0);
    });

    it('NOT_FOUND for another owner looks the same as for a missing row', async () => {
      const c = ctx.collection('own');
      const store = ownStore(c);
      await store.asServer().create(c, { userId: 'bob', title: 'secret' }, { recordId: 'bobs' });
      const alice = store.asCaller({ userId: 'alice' });
      const hidden = await expectChatwireError(() => alice.get(c, 'bobs'), 'NOT_FOUND');
      const missing = await expectChatwireError(() => alice.get(c, 'nobody'), 'NOT_FOUND');
      expect(hidden.message.replace('bobs', 'ID')).toBe(missing.message.replace('nobody', 'ID'));
      expect(await alice.find(c, 'bobs')).toBeNull();
    });

    it('update can never change the owner field, for callers and the server alike', async () => {
      const c = ctx.collection('own');
      const store = ownStore(c);
      await store.asServer().create(c, { userId: 'alice', title: 't' }, { recordId: 'r' });
      await expectChatwireError(() => store.asCaller({ userId: 'alice' }).update(c, 'r', { userId: 'bob' }), 'FORBIDDEN', { field: 'userId' });
      await expectChatwireError(() => store.asServer().update(c, 'r', { userId: 'bob' }), 'FORBIDDEN', { field: 'userId' });
      const same = await store.asCaller({ userId: 'alice' }).update(c, 'r', { userId: 'alice', title: 'u' });
      expect(same.data).toEqual({ userId: 'alice', title: 'u' });
    });

    it('deleteWhere is server-only', async () => {
      const c = ctx.collection('own');
      const store = ctx.store([definition(c, ALL_TRUE)]);
      await store.asServer().create(c, { userId: 'alice', title: 'x' });
      await expectChatwireError(() => store.asCaller({ userId: 'alice', role: 'admin' }).deleteWhere(c, { userId: 'alice' }), 'FORBIDDEN');
      expect(await store.asServer().deleteWhere(c, { userId: 'alice' })).toBe(1);
    });

    it('create with an existing recordId: equal data returns the existing record, different data is CONFLICT', async () => {
      const c = ctx.collection('own');
      const alice = ownStore(c).asCaller({ userId: 'alice' });
      const first = await alice.create(c, { title: 't' }, { recordId: 'msg-1' });
      expect(await alice.create(c, { title: 't' }, { recordId: 'msg-1' })).toEqual(first);
      await expectChatwireError(() => alice.create(c, { title: 'other' }, { recordId: 'msg-1' }), 'CONFLICT');
      expect((await alice.query(c)).records).toEqual([first]);
    });
  });
}
