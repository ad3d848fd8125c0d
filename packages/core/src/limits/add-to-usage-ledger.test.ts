import { createRecordStore, type RecordAccess } from '@chatwire/storage';
import { createMemoryDriver } from '@chatwire/storage/memory';
import { describe, expect, it } from 'vitest';
import { AI_USAGE, CHAT_COLLECTIONS } from '../records/chat-collections.js';
import { addToUsageLedger, usageLedgerRecordId } from './add-to-usage-ledger.js';

function ledger() {
  const store = createRecordStore({ driver: createMemoryDriver(), collections: CHAT_COLLECTIONS });
  const server = store.asServer();
  const add = (key: { userId: string; date: string; modelId: string }, tokens: [number, number], turnId: string) =>
    server.transaction((tx: RecordAccess) =>
      addToUsageLedger(tx, key, { turns: 1, inputTokens: tokens[0], outputTokens: tokens[1], totalTokens: tokens[0] + tokens[1] }, turnId),
    );
  const rows = async () => (await server.query(AI_USAGE, { limit: 200 })).records.map((r) => r.data);
  return { store, server, add, rows };
}

const KEY = { userId: 'alice', date: '2026-03-01', modelId: 'alpha-sonnet-4-6' };

describe('addToUsageLedger', () => {
  it('creates the row of a user, day and model on its first turn and adds every later turn to it', async () => {
    const l = ledger();
    await l.add(KEY, [10, 5], 't1');
    await l.add(KEY, [20, 7], 't2');
    await l.add({ ...KEY, modelId: 'beta-5.4' }, [1, 1], 't3');
    await l.add({ ...KEY, date: '2026-03-02' }, [2, 2], 't4');
    await l.add({ ...KEY, userId: 'bob' }, [3, 3], 't5');
    expect(await l.rows()).toEqual([
      { ...KEY, turns: 2, inputTokens: 30, outputTokens: 12, totalTokens: 42, lastTurnId: 't2' },
      { ...KEY, modelId: 'beta-5.4', turns: 1, inputTokens: 1, outputTokens: 1, totalTokens: 2, lastTurnId: 't3' },
      { ...KEY, date: '2026-03-02', turns: 1, inputTokens: 2, outputTokens: 2, totalTokens: 4, lastTurnId: 't4' },
      { ...KEY, userId: 'bob', turns: 1, inputTokens: 3, outputTokens: 3, totalTokens: 6, lastTurnId: 't5' },
    ]);
  });

  it('adding the turn it added last again changes nothing (a retried save whose first attempt had committed)', async () => {
    const l = ledger();
    await l.add(KEY, [10, 5], 't1');
    await l.add(KEY, [10, 5], 't1');
    await l.add(KEY, [4, 4], 't2');
    await l.add(KEY, [4, 4], 't2');
    expect(await l.rows()).toMatchObject([{ turns: 2, inputTokens: 14, outputTokens: 9, totalTokens: 23 }]);
  });

  it('two first turns with equal usage are two turns (the second create conflicts and adds to the first row)', async () => {
    const l = ledger();
    // As if the other transaction created the row between this one's lookup and its create.
    const racing: RecordAccess = new Proxy(l.server, {
      get(target, key, receiver) {
        if (key !== 'create') return Reflect.get(target, key, receiver) as unknown;
        return async (...args: Parameters<RecordAccess['create']>) => {
          await l.add(KEY, [10, 5], 'other');
          return target.create(...args);
        };
      },
    });
    await addToUsageLedger(racing, KEY, { turns: 1, inputTokens: 10, outputTokens: 5, totalTokens: 15 }, 'mine');
    expect(await l.rows()).toEqual([{ ...KEY, turns: 2, inputTokens: 20, outputTokens: 10, totalTokens: 30, lastTurnId: 'mine' }]);
  });

  it('nobody but the server writes or deletes the ledger; a user reads only their own rows', async () => {
    const l = ledger();
    await l.add(KEY, [1, 1], 't1');
    const id = usageLedgerRecordId(KEY.userId, KEY.date, KEY.modelId);
    const alice = l.store.asCaller({ userId: 'alice' });
    await expect(alice.update(AI_USAGE, id, { totalTokens: 0 })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(alice.delete(AI_USAGE, id)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(alice.create(AI_USAGE, { ...KEY, turns: 0, inputTokens: 0, outputTokens: 0, totalTokens: 0, lastTurnId: 'x' })).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    expect((await alice.get(AI_USAGE, id)).data.turns).toBe(1);
    expect(await l.store.asCaller({ userId: 'bob' }).find(AI_USAGE, id)).toBeNull();
  });

  it('record ids fit the store alphabet whatever the user and model ids are', () => {
    const id = usageLedgerRecordId('user with spaces/ü', '2026-03-01', 'model:🙂');
    expect(id).toMatch(/^[A-Za-z0-9._:-]{1,128}$/);
    expect(id).not.toBe(usageLedgerRecordId('user with spaces/ü', '2026-03-02', 'model:🙂'));
  });
});
