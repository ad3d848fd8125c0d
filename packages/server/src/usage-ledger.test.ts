import { backfillUsageLedger, createTurnLimits, type TurnLimits } from '@chatwire/core/limits';
import { createPostgresDriver } from '@chatwire/postgres';
import type { StoreDriver } from '@chatwire/storage';
import { createMemoryDriver } from '@chatwire/storage/memory';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { chatFixture, readSse, type ChatFixture } from './test-support/chat-fixture.js';
import { scriptedModel, textStep, type Script } from './test-support/scripted-model.js';

// GET /usage and the token quota read the usage ledger (`ai-usage`), which each stored turn adds to in its
// save's transaction. Checked against the turns actually run through the handler, on the memory store and
// (with CHATWIRE_TEST_DATABASE_URL) PostgreSQL.

const url = process.env.CHATWIRE_TEST_DATABASE_URL;
const schema = `cw_usage_${process.pid}_${Date.now().toString(36)}`;

interface Usage {
  date: string;
  modelId: string;
  turns: number;
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
}

/** A one-step answer of `input` + `output` tokens. */
const step = (input: number, output: number): Script => [
  ...textStep('Hello there').slice(0, -1),
  { type: 'finish', finishReason: 'stop', usage: { inputTokens: input, outputTokens: output, totalTokens: input + output } },
];

async function post(f: ChatFixture, user: string, body: Record<string, unknown>): Promise<Response> {
  const res = await f.request('POST', '/chat', { user, body });
  if (res.status === 200) await readSse(res);
  return res;
}

async function usage(f: ChatFixture, user = 'alice'): Promise<Usage[]> {
  const res = await f.request('GET', '/usage', { user });
  expect(res.status).toBe(200);
  return ((await res.json()) as { usage: Usage[] }).usage;
}

/** GET /usage as it was computed before the ledger: the user's turn rows, summed per UTC day and model. */
async function sumOfTurnRows(f: ChatFixture, user: string): Promise<Usage[]> {
  const sums = new Map<string, Usage>();
  for (const row of await f.rows('ai-turns')) {
    if (row.data.userId !== user) continue;
    const found = await f.store.asServer().get('ai-turns', row.recordId);
    const date = found.createdAt.slice(0, 10);
    const modelId = String(row.data.modelId);
    const tokens = row.data.usage as { input: number; output: number; total: number };
    const sum = sums.get(date + modelId) ?? { date, modelId, turns: 0, inputTokens: 0, outputTokens: 0, totalTokens: 0 };
    sums.set(date + modelId, { ...sum, turns: sum.turns + 1, inputTokens: sum.inputTokens + tokens.input, outputTokens: sum.outputTokens + tokens.output, totalTokens: sum.totalTokens + tokens.total });
  }
  return [...sums.values()].sort((a, b) => (a.date + a.modelId < b.date + b.modelId ? -1 : 1));
}

function usageSuite(name: string, driver: () => StoreDriver): void {
  describe(`the usage ledger (${name})`, () => {
    it('GET /usage sums the turns run; edits, regenerates and deleted chats stay counted (a spend ledger)', async () => {
      const scripted = scriptedModel([step(10, 5), step(20, 7), step(3, 3), step(4, 4), step(1, 1), step(100, 50)]);
      const f = chatFixture(scripted.model, { driver: driver() });
      const today = new Date().toISOString().slice(0, 10);
      const first = await f.createChat('alice');
      const second = await f.createChat('alice');
      const bobs = await f.createChat('bob');
      expect((await post(f, 'alice', { chatId: first, userMessageId: 'u1', content: 'Hi' })).status).toBe(200); // 10 + 5
      expect((await post(f, 'alice', { chatId: first, userMessageId: 'u2', content: 'More' })).status).toBe(200); // 20 + 7
      expect((await post(f, 'alice', { chatId: second, userMessageId: 'u3', content: 'Hi', modelId: 'beta-5.4' })).status).toBe(200); // 3 + 3
      expect((await post(f, 'bob', { chatId: bobs, userMessageId: 'u1', content: 'Hi' })).status).toBe(200); // 4 + 4

      // Until a turn is replaced or a chat deleted, the ledger says what the turn rows say.
      expect(await usage(f)).toEqual(await sumOfTurnRows(f, 'alice'));
      expect(await usage(f, 'bob')).toEqual(await sumOfTurnRows(f, 'bob'));
      expect(await usage(f)).toEqual([
        { date: today, modelId: 'alpha-sonnet-4-6', turns: 2, inputTokens: 30, outputTokens: 12, totalTokens: 42 },
        { date: today, modelId: 'beta-5.4', turns: 1, inputTokens: 3, outputTokens: 3, totalTokens: 6 },
      ]);

      // An edit and a regenerate replace turn rows; every turn run stays counted.
      expect((await post(f, 'alice', { chatId: first, trigger: 'edit', userMessageId: 'u1', content: 'Hi, edited' })).status).toBe(200); // 1 + 1
      expect((await post(f, 'alice', { chatId: first, trigger: 'regenerate' })).status).toBe(200); // 100 + 50
      expect((await f.rows('ai-turns')).filter((row) => row.data.chatId === first)).toHaveLength(1);
      const spent = [
        { date: today, modelId: 'alpha-sonnet-4-6', turns: 4, inputTokens: 131, outputTokens: 63, totalTokens: 194 },
        { date: today, modelId: 'beta-5.4', turns: 1, inputTokens: 3, outputTokens: 3, totalTokens: 6 },
      ];
      expect(await usage(f)).toEqual(spent);

      // Deleting chats takes nothing out either.
      for (const chatId of [first, second]) expect((await f.request('DELETE', `/chats/${chatId}`)).status).toBe(200);
      expect(await f.rows('ai-turns')).toHaveLength(1); // bob's
      expect(await usage(f)).toEqual(spent);
      expect(await usage(f, 'bob')).toEqual([{ date: today, modelId: 'alpha-sonnet-4-6', turns: 1, inputTokens: 4, outputTokens: 4, totalTokens: 8 }]);
      expect(scripted.calls).toHaveLength(6);
    });

    it('concurrent turns of one user in several chats are all counted (the day’s first turns race for its row)', async () => {
      const f = chatFixture(scriptedModel([step(10, 5)]).model, { driver: driver() });
      const chats = await Promise.all(Array.from({ length: 6 }, () => f.createChat('carol')));
      const answers = await Promise.all(chats.map((chatId, i) => post(f, 'carol', { chatId, userMessageId: `m${i}`, content: 'Hi' })));
      expect(answers.map((res) => res.status)).toEqual(chats.map(() => 200));
      expect(f.errors).toEqual([]);
      expect(await usage(f, 'carol')).toMatchObject([{ turns: 6, inputTokens: 60, outputTokens: 30, totalTokens: 90 }]);
    });

    it('the token quota read from the store holds after the user deletes the chats that spent it', async () => {
      let limits: TurnLimits | null = null;
      const f = chatFixture(scriptedModel([step(10, 5)]).model, {
        driver: driver(),
        handler: { limits: { admit: (caller) => limits!.admit(caller), used: (caller, spent) => limits!.used?.(caller, spent) } },
      });
      limits = createTurnLimits({ tokensPerDay: 20, store: f.store });
      const chats = [await f.createChat('dave'), await f.createChat('dave')];
      expect((await post(f, 'dave', { chatId: chats[0], userMessageId: 'm1', content: 'Hi' })).status).toBe(200);
      expect((await post(f, 'dave', { chatId: chats[1], userMessageId: 'm2', content: 'Hi' })).status).toBe(200);
      for (const chatId of chats) expect((await f.request('DELETE', `/chats/${chatId}`, { user: 'dave' })).status).toBe(200);
      const fresh = await f.createChat('dave');
      const refused = await post(f, 'dave', { chatId: fresh, userMessageId: 'm3', content: 'Hi' });
      expect(refused.status).toBe(429);
      expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('QUOTA_EXCEEDED');
    });

    it('backfillUsageLedger adds the turn rows stored before the ledger existed, once, even when run twice at once', async () => {
      const f = chatFixture(scriptedModel([step(10, 5), step(2, 1)]).model, { driver: driver() });
      const chats = [await f.createChat('erin'), await f.createChat('erin')];
      for (const [i, chatId] of chats.entries()) {
        expect((await post(f, 'erin', { chatId, userMessageId: `e${i}`, content: 'Hi' })).status).toBe(200);
        expect((await post(f, 'erin', { chatId, userMessageId: `e${i}b`, content: 'More', modelId: 'beta-5.4' })).status).toBe(200);
      }
      const counted = await usage(f, 'erin');
      // Make them rows of a version without the ledger: not marked, and no ledger rows.
      const server = f.store.asServer();
      for (const row of await f.rows('ai-turns')) if (row.data.userId === 'erin') await server.update('ai-turns', row.recordId, { usageCounted: null });
      expect(await server.deleteWhere('ai-usage', { userId: 'erin' })).toBe(2);
      expect(await usage(f, 'erin')).toEqual([]);

      const runs = await Promise.all([backfillUsageLedger(f.store, { batchSize: 1 }), backfillUsageLedger(f.store, { batchSize: 3 })]);
      expect(runs[0].turns + runs[1].turns).toBe(4);
      expect(await usage(f, 'erin')).toEqual(counted);
      expect(await usage(f, 'erin')).toEqual(await sumOfTurnRows(f, 'erin'));
      expect(await backfillUsageLedger(f.store)).toEqual({ turns: 0 });
    });
  });
}

usageSuite('memory store', () => createMemoryDriver());

describe.skipIf(!url)(`on a real PostgreSQL${url ? '' : ' (skipped: CHATWIRE_TEST_DATABASE_URL not set)'}`, () => {
  const pool = url ? new pg.Pool({ connectionString: url, max: 4 }) : null;
  afterAll(async () => {
    await pool?.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await pool?.end();
  });
  usageSuite('PostgreSQL', () => createPostgresDriver({ pool: pool!, schema }));
});
