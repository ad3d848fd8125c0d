/**
 * Branches (tree history) on PostgreSQL, through the real handler:
 * 1. `GET /chats/:id` of a 200-message active path in a chat with 50 branches (each an edited question and its
 *    answer off the path: 300 rows), against the same 200-message path in a linear chat, alternating, same run.
 *    Goal: p99 within 2x the linear chat's.
 * 2. What a tree turn adds to a turn: whole turns (a fast mock model, 20 deltas) into a tree chat and into a
 *    linear chat with the same history, alternating; the tree turn also reads the chat's rows at admission to
 *    place itself and moves the chat's active leaf when it is stored.
 *
 * Needs CHATWIRE_TEST_DATABASE_URL (rows skipped without it). Works in its own schema and drops it afterwards.
 */
import { AI_CHATS, AI_MESSAGES, createModelRegistry } from '@chatwire/core';
import { createPostgresDriver, createPostgresExecutor } from '@chatwire/postgres';
import { createChatHandler } from '@chatwire/server';
import { createRecordStore, type StoreDriver } from '@chatwire/storage';
import type { BenchRow } from './bench-row.js';
import { createBenchModel } from './support/bench-model.js';
import { consumeTurn } from './support/consume-turn.js';
import { QUICK } from './support/quick.js';
import { signHs256 } from './support/sign-hs256.js';
import { median, percentile } from './support/stats.js';

const SECRET = 'bench-branches-secret-that-is-32-bytes-long';
const PATH = 200;
const BRANCHES = 50;
const READS = QUICK ? 200 : 1_000;
const TURNS = QUICK ? 30 : 150;
const USER = 'u-bench';

async function seed(driver: StoreDriver, chatId: string, tree: boolean): Promise<void> {
  await driver.transaction(async (tx) => {
    const path: string[] = [];
    for (let i = 0; i < PATH; i++) {
      const id = `${chatId}-m${i}`;
      const role = i % 2 === 0 ? 'user' : 'assistant';
      const content = `${role === 'user' ? 'Question' : 'An answer of a few words, as a chat has them,'} number ${i}.`;
      const parent = tree ? { parentId: i === 0 ? null : path[i - 1]! } : {};
      await tx.insert(AI_MESSAGES, { recordId: id, data: { chatId, userId: USER, role, content, parts: [{ type: 'text', text: content }], ...parent } });
      path.push(id);
    }
    if (tree) {
      // 50 branches: an edited question beside a question of the path, and its answer.
      for (let b = 0; b < BRANCHES; b++) {
        const at = (b * 4) % PATH; // a user message of the path
        const q = `${chatId}-b${b}q`;
        await tx.insert(AI_MESSAGES, { recordId: q, data: { chatId, userId: USER, role: 'user', content: `Edited question ${b}.`, parentId: at === 0 ? null : path[at - 1]! } });
        await tx.insert(AI_MESSAGES, { recordId: `${chatId}-b${b}a`, data: { chatId, userId: USER, role: 'assistant', content: `Its answer ${b}.`, parentId: q } });
      }
    }
    await tx.insert(AI_CHATS, { recordId: chatId, data: { userId: USER, title: chatId, ...(tree ? { activeLeafId: path.at(-1)! } : {}) } });
  });
}

export default async function branchesBench(): Promise<BenchRow[]> {
  const url = process.env.CHATWIRE_TEST_DATABASE_URL || process.env.DATABASE_URL;
  if (!url) return [{ group: 'branches', name: 'skipped: CHATWIRE_TEST_DATABASE_URL not set', value: 0, unit: '' }];
  const admin = createPostgresExecutor({ connectionString: url, max: 1 });
  const schema = `bench_branches_${process.pid}_${Date.now().toString(36)}`;
  const driver = createPostgresDriver({ connectionString: url, max: 4, schema });
  try {
    const store = createRecordStore({ driver });
    const models = createModelRegistry({ env: {}, fallbackModel: createBenchModel({ deltas: 20 }) });
    const handlerOf = (history: 'linear' | 'tree') => createChatHandler({ store, models, auth: { secret: SECRET }, summarizerModelId: false, history });
    const tree = handlerOf('tree');
    const linear = handlerOf('linear');
    await seed(driver, 'c-linear', false);
    await seed(driver, 'c-tree', true);
    const headers = { authorization: `Bearer ${signHs256({ sub: USER }, SECRET)}`, 'content-type': 'application/json' };
    const get = async (handler: typeof tree, chatId: string) => {
      const res = await handler(new Request(`http://bench/api/ai/chats/${chatId}`, { headers }));
      const body = (await res.json()) as { messages: unknown[] };
      if (body.messages.length !== PATH) throw new Error(`GET ${chatId}: ${body.messages.length} messages`);
    };

    // 1. Reads, alternating, after a warm-up of each.
    for (let i = 0; i < 20; i++) await Promise.all([get(linear, 'c-linear'), get(tree, 'c-tree')]);
    const reads = { linear: [] as number[], tree: [] as number[] };
    for (let i = 0; i < READS; i++) {
      for (const [key, handler, chatId] of [['linear', linear, 'c-linear'], ['tree', tree, 'c-tree']] as const) {
        const t0 = performance.now();
        await get(handler, chatId);
        reads[key].push(performance.now() - t0);
      }
    }
    reads.linear.sort((a, b) => a - b);
    reads.tree.sort((a, b) => a - b);
    const p99 = { linear: percentile(reads.linear, 99), tree: percentile(reads.tree, 99) };

    // 2. Whole turns, alternating, each chat starting from 20 stored messages.
    const turnMs = { linear: [] as number[], tree: [] as number[] };
    for (const [h, chatId] of [[linear, 't-linear'], [tree, 't-tree']] as const) {
      await h(new Request('http://bench/api/ai/chats', { method: 'POST', headers, body: '{}' })).then(async (res) => {
        const { chat } = (await res.json()) as { chat: { recordId: string } };
        turnChats.set(chatId, chat.recordId);
      });
    }
    for (let i = 0; i < TURNS + 10; i++) {
      for (const [key, handler] of [['linear', linear], ['tree', tree]] as const) {
        const chatId = turnChats.get(`t-${key}`)!;
        const body = JSON.stringify({ chatId, userMessageId: `${key}-q${i}`, content: `Question ${i}` });
        const t0 = performance.now();
        const sample = await consumeTurn(handler, new Request('http://bench/api/ai/chat', { method: 'POST', headers, body }));
        if (sample.status !== 200) throw new Error(`turn ${key} ${i}: ${sample.status}`);
        if (i >= 10) turnMs[key].push(performance.now() - t0);
      }
    }
    const added = median(turnMs.tree) - median(turnMs.linear);
    const shape = `${PATH}-message path, ${BRANCHES} branches (${PATH + 2 * BRANCHES} rows), PostgreSQL`;
    return [
      { group: 'branches', name: `GET /chats/:id p99, linear chat, ${PATH} messages`, value: round(p99.linear), unit: 'ms', note: `p50 ${round(median(reads.linear))} ms, ${READS} reads` },
      {
        group: 'branches',
        name: `GET /chats/:id p99, tree chat: ${shape}`,
        value: round(p99.tree),
        unit: 'ms',
        ratio: { value: round(p99.tree / p99.linear), against: 'linear chat p99' },
        goal: '<= 2x linear chat p99',
        met: p99.tree <= 2 * p99.linear,
        note: `p50 ${round(median(reads.tree))} ms`,
      },
      {
        group: 'branches',
        name: 'added cost of a tree turn (median whole turn, tree - linear)',
        value: round(added),
        unit: 'ms',
        ratio: { value: round(median(turnMs.tree) / median(turnMs.linear)), against: 'linear turn' },
        note: `tree ${round(median(turnMs.tree))} ms, linear ${round(median(turnMs.linear))} ms, ${TURNS} turns each, 10-${10 + TURNS} stored pairs`,
      },
    ];
  } finally {
    await driver.close();
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => undefined);
    await admin.close();
  }
}

const turnChats = new Map<string, string>();
const round = (n: number) => Math.round(n * 100) / 100;
