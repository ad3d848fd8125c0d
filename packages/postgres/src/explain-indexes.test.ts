import { createChatService, createDemoModel, createModelRegistry } from '@chatwire/core';
import { createRecordStore, parseSearchQuery } from '@chatwire/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSqlDriver, type SqlDriver } from './create-sql-driver.js';
import type { SqlExecutor, SqlValue } from './sql-executor.js';
import { createTableNames } from './table-names.js';
import { backends, type OpenedBackend } from './testing/test-backends.js';

interface Statement {
  text: string;
  params: SqlValue[];
}

/** Wraps an executor so the test can EXPLAIN exactly the statement the driver sent. */
function recording(executor: SqlExecutor, log: Statement[]): SqlExecutor {
  return {
    ...executor,
    query: (text, params) => {
      log.push({ text, params: [...(params ?? [])] });
      return executor.query(text, params);
    },
  };
}

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

function nodes(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodes)];
}

for (const backend of backends) {
  describe.skipIf(backend.skipReason !== '')(`EXPLAIN of the hot queries on ${backend.name} ${backend.skipReason}`, () => {
    let opened: OpenedBackend;
    let driver: SqlDriver;
    const log: Statement[] = [];

    /** Runs `action`, then EXPLAINs the last statement it sent and returns the plan's nodes. */
    async function explainLast(action: () => Promise<unknown>): Promise<PlanNode[]> {
      await action();
      const last = log[log.length - 1] as Statement;
      // PGlite ships with enable_seqscan = off; turn it on so that the index has to win on cost.
      const result = await opened.executor.transaction(async (client) => {
        await client.query('SET LOCAL enable_seqscan = on');
        return client.query<{ 'QUERY PLAN': unknown }>(`EXPLAIN (FORMAT JSON) ${last.text}`, last.params);
      });
      const raw = result.rows[0]?.['QUERY PLAN'];
      const parsed = (typeof raw === 'string' ? JSON.parse(raw) : raw) as { Plan: PlanNode }[];
      return nodes((parsed[0] as { Plan: PlanNode }).Plan);
    }

    beforeAll(async () => {
      opened = await backend.open('explain');
      driver = createSqlDriver({ name: 'recorded', executor: recording(opened.executor, log), tables: createTableNames(opened.schema, 'chatwire_') });
      await driver.ready();
      // 20,000 messages in 400 chats of 40 users, and the 400 chats; loaded in SQL, then ANALYZEd.
      const records = `"${opened.schema}".chatwire_records`;
      await opened.sql.query(
        `INSERT INTO ${records} (collection, record_id, data, created_at, updated_at)
         SELECT 'ai-messages', 'm' || g, jsonb_build_object('chatId', 'c' || (g % 400), 'userId', 'u' || (g % 40), 'role', 'user', 'content', 'hello ' || g),
                now() + g * interval '1 ms', now() + g * interval '1 ms'
         FROM generate_series(1, 20000) g`,
      );
      await opened.sql.query(
        `INSERT INTO ${records} (collection, record_id, data, created_at, updated_at)
         SELECT 'ai-chats', 'c' || g, jsonb_build_object('userId', 'u' || (g % 40), 'title', 'chat ' || g),
                now() + g * interval '1 ms', now() + g * interval '1 ms'
         FROM generate_series(0, 399) g`,
      );
      // The usage ledger: 90 days x 3 models of each of the 40 users (10,800 rows), and 20,000 turn rows.
      await opened.sql.query(
        `INSERT INTO ${records} (collection, record_id, data, created_at, updated_at)
         SELECT 'ai-usage', 'usage.' || g, jsonb_build_object('userId', 'u' || (g % 40), 'date', to_char(d, 'YYYY-MM-DD'),
                  'modelId', 'model-' || (g / 40 % 3), 'turns', 1, 'inputTokens', 1, 'outputTokens', 1, 'totalTokens', 2, 'lastTurnId', 't' || g),
                d, d
         FROM generate_series(0, 10799) g, LATERAL (SELECT now() - interval '90 days' + (g / 120) * interval '1 day' AS d) day`,
      );
      await opened.sql.query(
        `INSERT INTO ${records} (collection, record_id, data, created_at, updated_at)
         SELECT 'ai-turns', 't' || g, jsonb_build_object('chatId', 'c' || (g % 400), 'userId', 'u' || (g % 40), 'modelId', 'model-0',
                  'usage', jsonb_build_object('input', 1, 'output', 1, 'total', 2), 'usageCounted', true),
                now() - interval '90 days' + g * interval '6 minutes', now()
         FROM generate_series(1, 20000) g`,
      );
      await opened.sql.query(`ANALYZE ${records}`);
    });
    afterAll(() => opened?.cleanup());

    it('one chat’s messages in order (the history query: chatId and userId filter, createdAt asc) use the chat index, no sort', async () => {
      const query = { filter: { chatId: 'c7', userId: 'u7' }, orderBy: { field: 'createdAt' }, limit: 20 } as const;
      const plan = await explainLast(() => driver.query('ai-messages', query));
      expect(plan.map((n) => n['Index Name'])).toContain('chatwire_records_chat_created_idx');
      expect(plan.map((n) => n['Node Type'])).not.toContain('Sort');
      expect(plan.map((n) => n['Node Type'])).not.toContain('Seq Scan');
      // The next page (keyset cursor) too.
      const first = await driver.query('ai-messages', query);
      expect(first.records).toHaveLength(20);
      const next = await explainLast(() => driver.query('ai-messages', { ...query, cursor: first.nextCursor as string }));
      expect(next.map((n) => n['Index Name'])).toContain('chatwire_records_chat_created_idx');
      expect(next.map((n) => n['Node Type'])).not.toContain('Sort');
    });

    it('a user’s chats newest first use the user index, no sort', async () => {
      const query = { filter: { userId: 'u3' }, orderBy: { field: 'createdAt', direction: 'desc' }, limit: 5 } as const;
      const plan = await explainLast(() => driver.query('ai-chats', query));
      expect(plan.map((n) => n['Index Name'])).toContain('chatwire_records_user_created_idx');
      expect(plan.map((n) => n['Node Type'])).not.toContain('Sort');
      const page = await driver.query('ai-chats', query);
      expect(page.records.map((r) => r.recordId)).toEqual(['c363', 'c323', 'c283', 'c243', 'c203']);
    });

    it('GET /usage reads the caller’s ledger rows through the user index (never the turn rows, never a full scan)', async () => {
      const service = createChatService({
        store: createRecordStore({ driver }),
        models: createModelRegistry({ fallbackModel: createDemoModel() }),
        summarizerModelId: false,
      });
      const from = log.length;
      const { usage } = await service.usage({ userId: 'u3' });
      expect(usage.length).toBeGreaterThanOrEqual(29 * 3);
      expect(usage.every((row) => row.turns === 1)).toBe(true);
      const sent = log.slice(from).filter((statement) => statement.text.includes('SELECT'));
      expect(sent).toHaveLength(1);
      expect(sent[0]!.params).toContain('ai-usage');
      expect(sent[0]!.params).not.toContain('ai-turns');
      // Fewer ledger rows than a page: the planner may fetch them all by the index and sort those few.
      const plan = await explainLast(() => service.usage({ userId: 'u3' }));
      expect(plan.map((n) => n['Index Name'])).toContain('chatwire_records_user_created_idx');
      expect(plan.map((n) => n['Node Type'])).not.toContain('Seq Scan');
    });

    it('a record by id uses the primary key', async () => {
      const plan = await explainLast(() => driver.get('ai-messages', 'm42'));
      expect(plan.map((n) => n['Index Name'])).toContain('chatwire_records_pkey');
    });

    it('a search of one user’s messages finds them by the GIN index and fetches its page by row id, never a full scan', async () => {
      const search = (cursor?: string) =>
        driver.search!({
          sources: [{ collection: 'ai-messages', filter: { userId: { eq: 'u7' } } }],
          query: parseSearchQuery('hello'),
          limit: 5,
          ...(cursor === undefined ? {} : { cursor }),
        });
      const plan = await explainLast(() => search());
      expect(plan.map((n) => n['Index Name'])).toContain('chatwire_records_search_v3_idx');
      expect(plan.map((n) => n['Node Type'])).toContain('Tid Scan');
      expect(plan.map((n) => n['Node Type'])).not.toContain('Seq Scan');
      const first = await search();
      expect(first.hits).toHaveLength(5);
      const next = await explainLast(() => search(first.nextCursor as string));
      expect(next.map((n) => n['Node Type'])).not.toContain('Seq Scan');
    });
  });
}
