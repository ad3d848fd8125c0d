/**
 * `GET /usage` and the token quota for a user with 100,000 turns in the last 30 days, on PostgreSQL
 * (issue #16): `service.usage(caller)` (the route's work minus HTTP), which reads the usage ledger
 * (`ai-usage`, one row per day and model), against the way it was computed before the ledger, measured in the
 * same run on the same table: every turn row of the user since `from` read through the store and summed in JS.
 * Also, same run: the alternative that was not chosen (one SQL GROUP BY over the user's JSONB turn rows,
 * served by the (userId, createdAt) index), the token quota check (`createTurnLimits({ store }).admit`: today's
 * ledger rows against today's turn rows), and what the ledger costs a turn's save (the turn row's insert
 * alone against the insert plus the ledger addition, in one transaction). Both answers are checked equal.
 *
 * The table also holds other users' turns (900,000). Only with CHATWIRE_TEST_DATABASE_URL or
 * DATABASE_URL; works in its own schema and drops it afterwards. `--quick`: the same shape at a twentieth
 * (5,000 turns of the user among 50,000; the 100x goal is then checked in full mode only), fewer runs, and
 * 20,000 turns on the memory store.
 * Then the same user on the memory store, each turn stored as a save stores it (turn row and ledger addition in
 * one transaction): `service.usage` against summing the turn rows.
 */
import os from 'node:os';
import { AI_TURNS, createChatService, createDemoModel, createModelRegistry } from '@chatwire/core';
import { createTurnLimits } from '@chatwire/core/limits';
import { createPostgresExecutor, createSqlDriver, createTableNames } from '@chatwire/postgres';
import { createRecordStore, type RecordEnvelope, type RecordStore } from '@chatwire/storage';
import { createMemoryDriver } from '@chatwire/storage/memory';
import { addTurnToUsageLedger, tokens, type TurnRowUsage } from '../packages/core/src/limits/add-to-usage-ledger.js';
import type { UsageRow } from '../packages/core/src/limits/read-usage.js';
import type { BenchRow } from './bench-row.js';
import { percentile, timeEach } from './support/stats.js';
import { QUICK, sized } from './support/quick.js';

const USER = 'bench-user';
const USER_TURNS = 100_000;
/** The memory store's user (quick: 20,000 turns; its ledger is ~10,000x faster than the sum, far above the goal). */
const MEMORY_TURNS = sized(USER_TURNS, 20_000);
/** On PostgreSQL: the user's turns and the others' (quick: 5,000 among 25,000 in all; the goal is checked in full mode). */
const PG_USER_TURNS = sized(USER_TURNS, 5_000);
const OTHER_TURNS = sized(900_000, 20_000);
const OTHER_USERS = 5_000;
const DAYS = 30;
const DAY_MS = 86_400_000;
const MODELS = ['alpha-sonnet-4-6', 'beta-5.4', 'gamma-oss-120b'];
const RUNS = sized({ ledger: 300, baseline: 5, groupBy: 5, quota: 300, oldQuota: 20, save: 200 }, { ledger: 100, baseline: 3, groupBy: 3, quota: 100, oldQuota: 10, save: 60 });

/** The user's turn rows created at or after `fromMs`, newest first, through the driver's user index: the pre-ledger read. */
async function eachTurnRowSince(store: RecordStore, fromMs: number, visit: (row: TurnRowUsage, createdAtMs: number) => void): Promise<void> {
  let cursor: string | undefined;
  do {
    const page = await store.driver.query(AI_TURNS, {
      filter: { userId: USER },
      orderBy: { field: 'createdAt', direction: 'desc' },
      limit: 1_000,
      ...(cursor ? { cursor } : {}),
    });
    for (const record of page.records as RecordEnvelope<TurnRowUsage>[]) {
      const createdAtMs = Date.parse(record.createdAt);
      if (createdAtMs < fromMs) return;
      visit(record.data, createdAtMs);
    }
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
}

/** `GET /usage` as computed before the ledger: every turn row since `from` read and summed per day and model. */
async function usageFromTurnRows(store: RecordStore, fromMs: number, toMs: number): Promise<UsageRow[]> {
  const sums = new Map<string, UsageRow>();
  await eachTurnRowSince(store, fromMs, (row, at) => {
    if (at >= toMs) return;
    const date = new Date(at).toISOString().slice(0, 10);
    const key = `${date}\u0000${row.modelId}`;
    let sum = sums.get(key);
    if (!sum) sums.set(key, (sum = { date, modelId: row.modelId, turns: 0, inputTokens: 0, outputTokens: 0, totalTokens: 0 }));
    sum.turns++;
    sum.inputTokens += tokens(row.usage?.input);
    sum.outputTokens += tokens(row.usage?.output);
    sum.totalTokens += tokens(row.usage?.total);
  });
  return [...sums.values()].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.modelId < b.modelId ? -1 : 1));
}

/** The same user on the memory store: 100,000 turns (quick: 20,000) stored as saves store them, over the last 30 days. */
async function memoryRows(): Promise<BenchRow[]> {
  const now = Date.now();
  const start = Math.floor(now / DAY_MS) * DAY_MS - (DAYS - 1) * DAY_MS;
  let clock = start;
  const store = createRecordStore({ driver: createMemoryDriver({ now: () => clock }) });
  const service = createChatService({ store, models: createModelRegistry({ fallbackModel: createDemoModel() }), summarizerModelId: false });
  const server = store.asServer();
  const loadStart = performance.now();
  for (let i = 0; i < MEMORY_TURNS; i++) {
    clock = start + Math.floor((i * (now - start)) / MEMORY_TURNS);
    const data = {
      chatId: `chat-${Math.floor(i / 10)}`, userId: USER, userMessageId: `u${i}`, assistantMessageId: `turn-${i}`, trigger: 'submit',
      modelId: MODELS[Math.floor(i / 7) % 3]!, provider: 'provider_a', finishReason: 'stop',
      usage: { input: 100 + (i % 1000), output: 10 + (i % 300), total: 110 + (i % 1000) + (i % 300), reasoning: null, cached: 0 },
      steps: 1, toolCalls: [], durationMs: 1000, usageCounted: true,
    };
    await server.transaction(async (tx) => addTurnToUsageLedger(tx, await tx.create<TurnRowUsage>(AI_TURNS, data, { recordId: `turn-${i}` })));
  }
  const loadS = (performance.now() - loadStart) / 1000;
  clock = now;
  const caller = { userId: USER };
  const { usage } = await service.usage(caller);
  const old = await usageFromTurnRows(store, start, start + DAYS * DAY_MS);
  if (JSON.stringify(usage) !== JSON.stringify(old)) throw new Error('memory store: the ledger and the turn rows disagree');
  const ledger = await timeEach(RUNS.ledger, () => service.usage(caller));
  const baseline = await timeEach(RUNS.baseline, () => usageFromTurnRows(store, start, start + DAYS * DAY_MS));
  const p50 = percentile(ledger, 50);
  const baseP50 = percentile(baseline, 50);
  return [
    {
      group: 'usage',
      name: `memory store: the same user (${MEMORY_TURNS.toLocaleString('en')} turns stored with their ledger additions in ${loadS.toFixed(1)} s), service.usage p50`,
      value: p50,
      unit: 'ms',
      ratio: { value: baseP50 / p50, against: `summing the turn rows p50 (${baseP50.toFixed(0)} ms)` },
      goal: '>= 100x faster than summing the turn rows',
      met: baseP50 / p50 >= 100,
      note: `p99 ${percentile(ledger, 99).toFixed(2)} ms; ${RUNS.ledger} / ${RUNS.baseline} runs; same answer`,
    },
  ];
}

export default async function usageBench(): Promise<BenchRow[]> {
  const memory = await memoryRows();
  return [...(await postgresRows()), ...memory];
}

async function postgresRows(): Promise<BenchRow[]> {
  const group = 'usage';
  const name = `GET /usage of a user with ${PG_USER_TURNS.toLocaleString('en')} turns in ${DAYS} days on PostgreSQL`;
  const url = process.env.CHATWIRE_TEST_DATABASE_URL || process.env.DATABASE_URL;
  if (!url) return [{ group, name, value: Number.NaN, unit: 'ms', note: 'skipped: neither CHATWIRE_TEST_DATABASE_URL nor DATABASE_URL is set' }];
  const executor = createPostgresExecutor({ connectionString: url, max: 2 });
  const schema = `cw_usage_${process.pid}`;
  const tables = createTableNames(schema, 'chatwire_');
  const driver = createSqlDriver({ name: 'bench', executor, tables });
  const store = createRecordStore({ driver });
  const service = createChatService({ store, models: createModelRegistry({ fallbackModel: createDemoModel() }), summarizerModelId: false });
  const caller = { userId: USER };
  try {
    await executor.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await driver.ready();
    const version = (await executor.query<{ v: string }>('SELECT current_setting($1) AS v', ['server_version'])).rows[0]?.v;

    // Turn rows as saveTurn writes them, the user's spread evenly from 29 days ago (UTC midnight) to now,
    // the others' over the same time; then the ledger rows those saves would have added.
    const loadStart = performance.now();
    const now = Date.now();
    const start = Math.floor(now / DAY_MS) * DAY_MS - (DAYS - 1) * DAY_MS;
    const total = PG_USER_TURNS + OTHER_TURNS;
    await executor.query(
      `INSERT INTO ${tables.records} (collection, record_id, data, created_at, updated_at)
       SELECT 'ai-turns', md5('turn' || g)::uuid::text,
              jsonb_build_object('chatId', md5('chat' || (g / 10))::uuid::text,
                'userId', CASE WHEN g % ${total / PG_USER_TURNS} = 0 THEN $1 ELSE 'user-' || (g % ${OTHER_USERS}) END,
                'userMessageId', 'u.' || md5('u' || g), 'assistantMessageId', md5('turn' || g)::uuid::text, 'trigger', 'submit',
                'modelId', ($2::text[])[1 + (g / 7) % 3], 'provider', 'provider_a', 'finishReason', 'stop',
                'usage', jsonb_build_object('input', 100 + g % 1000, 'output', 10 + g % 300, 'total', 110 + g % 1000 + g % 300, 'reasoning', null, 'cached', 0),
                'steps', 1, 'toolCalls', '[]'::jsonb, 'durationMs', 1000 + g % 5000,
                'compaction', jsonb_build_object('stages', '[]'::jsonb, 'charsBefore', 1200, 'charsAfter', 1200, 'withinBudget', true, 'droppedEntries', 0),
                'usageCounted', true),
              t.ts, t.ts
       FROM generate_series(0, ${total - 1}) g,
            LATERAL (SELECT to_timestamp((${start}::float8 + g::float8 * ${(now - start) / total}::float8) / 1000) AS ts) t`,
      [USER, `{${MODELS.join(',')}}`],
    );
    await executor.query(
      `INSERT INTO ${tables.records} (collection, record_id, data, created_at, updated_at)
       SELECT 'ai-usage', md5(data->>'userId' || d || (data->>'modelId')),
              jsonb_build_object('userId', data->'userId', 'date', d, 'modelId', data->'modelId', 'turns', count(*),
                'inputTokens', sum((data->'usage'->>'input')::numeric), 'outputTokens', sum((data->'usage'->>'output')::numeric),
                'totalTokens', sum((data->'usage'->>'total')::numeric), 'lastTurnId', max(record_id)),
              min(created_at), max(created_at)
       FROM ${tables.records}, LATERAL (SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS d) day
       WHERE collection = 'ai-turns'
       GROUP BY data->'userId', data->>'userId', d, data->'modelId', data->>'modelId'
       ORDER BY min(created_at)`,
    );
    await executor.query(`VACUUM ANALYZE ${tables.records}`);
    const loadS = (performance.now() - loadStart) / 1000;

    // Same answer both ways (the default range: the last 30 days, today included).
    const fromMs = start;
    const toMs = start + DAYS * DAY_MS;
    const { usage } = await service.usage(caller);
    const old = await usageFromTurnRows(store, fromMs, toMs);
    if (JSON.stringify(usage) !== JSON.stringify(old)) throw new Error('the ledger and the turn rows disagree');
    const turns = usage.reduce((n, row) => n + row.turns, 0);
    if (turns !== PG_USER_TURNS) throw new Error(`expected ${PG_USER_TURNS} turns, the ledger says ${turns}`);

    const ledger = await timeEach(RUNS.ledger, () => service.usage(caller));
    const baseline = await timeEach(RUNS.baseline, () => usageFromTurnRows(store, fromMs, toMs));
    // Option (b), not chosen: the database sums the JSONB turn rows.
    const groupBySql = `SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS date, data->>'modelId' AS model, count(*) AS turns,
        sum((data->'usage'->>'input')::numeric) AS input, sum((data->'usage'->>'output')::numeric) AS output, sum((data->'usage'->>'total')::numeric) AS total
      FROM ${tables.records} WHERE collection = 'ai-turns' AND data->'userId' = to_jsonb($1::text) AND created_at >= to_timestamp($2::float8 / 1000)
      GROUP BY 1, 2 ORDER BY 1, 2`;
    const grouped = await executor.query<{ turns: string }>(groupBySql, [USER, String(fromMs)]);
    if (grouped.rows.length !== usage.length) throw new Error('GROUP BY and the ledger disagree');
    const groupBy = await timeEach(RUNS.groupBy, () => executor.query(groupBySql, [USER, String(fromMs)]));

    // The token quota read from the store: today's ledger rows against today's turn rows.
    const limits = createTurnLimits({ tokensPerDay: Number.MAX_SAFE_INTEGER, store });
    const midnight = Math.floor(now / DAY_MS) * DAY_MS;
    const quota = await timeEach(RUNS.quota, () => limits.admit(caller));
    const oldQuota = await timeEach(RUNS.oldQuota, () => {
      let sum = 0;
      return eachTurnRowSince(store, midnight, (row) => (sum += tokens(row.usage?.total)));
    });
    let todayTurns = 0;
    await eachTurnRowSince(store, midnight, () => todayTurns++);

    // A save's transaction: the turn row alone, or with the ledger addition (alternating).
    store.register({ name: 'bench-turns', columns: [{ name: 'userId', type: 'string' }, { name: 'modelId', type: 'string' }, { name: 'usage', type: 'object' }], rules: { read: false, create: false, update: false, delete: false } });
    const server = store.asServer();
    const row = (i: number) => ({ userId: `saver-${i % 4}`, modelId: MODELS[i % 3]!, usage: { input: 10, output: 5, total: 15 } });
    const plain: number[] = [];
    const withLedger: number[] = [];
    for (let i = 0; i < RUNS.save * 2; i++) {
      const started = performance.now();
      await server.transaction(async (tx) => {
        const stored = await tx.create<TurnRowUsage>('bench-turns', row(i), { recordId: `save-${i}` });
        if (i % 2 === 1) await addTurnToUsageLedger(tx, stored);
      });
      (i % 2 === 1 ? withLedger : plain).push(performance.now() - started);
    }
    plain.sort((a, b) => a - b);
    withLedger.sort((a, b) => a - b);

    const p50 = percentile(ledger, 50);
    const p99 = percentile(ledger, 99);
    const baseP50 = percentile(baseline, 50);
    const load = `load average ${os.loadavg()[0]?.toFixed(1)} on ${os.cpus().length} cores`;
    const rows = `${(total + 0).toLocaleString('en')} turn rows in all`;
    return [
      {
        group,
        name: `${name}: service.usage (the ledger, ${usage.length} rows) p50`,
        value: p50,
        unit: 'ms',
        ratio: { value: baseP50 / p50, against: 'summing the turn rows p50' },
        // The goal is set on the 100,000-turn user: quick mode's 5,000 rows are too few to be the yardstick.
        goal: QUICK ? '>= 100x faster than summing the turn rows (checked in full mode, 100,000 turns)' : '>= 100x faster than summing the turn rows',
        ...(QUICK ? {} : { met: baseP50 / p50 >= 100 }),
        note: `PostgreSQL ${version}; ${rows}; ${RUNS.ledger} runs; ${load}`,
      },
      { group, name: 'the same, p99', value: p99, unit: 'ms', ratio: { value: baseP50 / p99, against: 'summing the turn rows p50' } },
      {
        group,
        name: `baseline: the ${PG_USER_TURNS.toLocaleString('en')} turn rows read through the store and summed (before the ledger) p50`,
        value: baseP50,
        unit: 'ms',
        note: `p99 ${percentile(baseline, 99).toFixed(0)} ms; ${RUNS.baseline} runs; same answer`,
      },
      {
        group,
        name: 'not chosen: one SQL GROUP BY over the JSONB turn rows p50',
        value: percentile(groupBy, 50),
        unit: 'ms',
        ratio: { value: percentile(groupBy, 50) / p50, against: 'the ledger p50' },
        note: `${RUNS.groupBy} runs`,
      },
      {
        group,
        name: `token quota check read from the store (createTurnLimits({ store }).admit), ${todayTurns.toLocaleString('en')} turns today, p50`,
        value: percentile(quota, 50),
        unit: 'ms',
        ratio: { value: percentile(oldQuota, 50) / percentile(quota, 50), against: `summing today's turn rows p50 (${percentile(oldQuota, 50).toFixed(1)} ms)` },
        note: `p99 ${percentile(quota, 99).toFixed(2)} ms; ${RUNS.quota} / ${RUNS.oldQuota} runs`,
      },
      {
        group,
        name: "a save's transaction with the ledger addition p50 (turn row insert + ledger row locked and updated)",
        value: percentile(withLedger, 50),
        unit: 'ms',
        ratio: { value: percentile(withLedger, 50) / percentile(plain, 50), against: `the turn row insert alone p50 (${percentile(plain, 50).toFixed(2)} ms)` },
        note: `p99 ${percentile(withLedger, 99).toFixed(2)} ms vs ${percentile(plain, 99).toFixed(2)} ms; ${RUNS.save} each, alternating`,
      },
      { group, name: `load ${rows} + the ledger + VACUUM ANALYZE${QUICK ? ' (quick)' : ''}`, value: loadS, unit: 's' },
    ];
  } finally {
    await executor.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => undefined);
    await executor.close();
  }
}
