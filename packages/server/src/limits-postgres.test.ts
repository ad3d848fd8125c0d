import { createTurnLimits } from '@chatwire/core/limits';
import { createPostgresDriver } from '@chatwire/postgres';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { chatFixture, readSse, type ChatFixture } from './test-support/chat-fixture.js';
import { scriptedModel, textStep } from './test-support/scripted-model.js';

const url = process.env.CHATWIRE_TEST_DATABASE_URL;
const schema = `cw_limits_${process.pid}_${Date.now().toString(36)}`;

let n = 0;
async function turn(f: ChatFixture, user = 'alice'): Promise<Response> {
  const chatId = await f.createChat(user);
  const res = await f.request('POST', '/chat', { user, body: { chatId, userMessageId: `u${++n}`, content: 'Hi' } });
  if (res.status === 200) await readSse(res);
  return res;
}

describe.skipIf(!url)(`limits on a real PostgreSQL shared by two handlers${url ? '' : ' (skipped: CHATWIRE_TEST_DATABASE_URL not set)'}`, () => {
  const pools: pg.Pool[] = [];
  afterAll(async () => {
    if (pools[0]) await pools[0].query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await Promise.all(pools.map((pool) => pool.end()));
  });

  it('tokens per day are read from the shared turn rows: the quota holds across both handlers', async () => {
    const scripted = scriptedModel([textStep('Hello there')]); // 15 tokens a turn
    const [a, b] = [0, 1].map(() => {
      const pool = new pg.Pool({ connectionString: url, max: 4 });
      pools.push(pool);
      const driver = createPostgresDriver({ pool, schema });
      // Each handler has its own store over the same tables, like two processes.
      const f: ChatFixture = chatFixture(scripted.model, {
        driver,
        handler: { limits: { admit: (caller) => limits.admit(caller), used: (caller, usage) => limits.used?.(caller, usage) } },
      });
      const limits = createTurnLimits({ tokensPerDay: 20, store: f.store });
      return f;
    });
    expect((await turn(a!)).status).toBe(200);
    expect((await turn(b!)).status).toBe(200);
    const refused = await turn(a!);
    expect(refused.status).toBe(429);
    const body = (await refused.json()) as { error: { code: string; retryAfter: number } };
    expect(body.error.code).toBe('QUOTA_EXCEEDED');
    expect(refused.headers.get('retry-after')).toBe(String(body.error.retryAfter));
    expect((await turn(b!)).status).toBe(429);
    expect(scripted.calls).toHaveLength(2);
    expect((await turn(b!, 'bob')).status).toBe(200);
    // GET /usage reads the same rows.
    const usage = (await (await a!.request('GET', '/usage')).json()) as { usage: Array<{ turns: number; totalTokens: number }> };
    expect(usage.usage).toMatchObject([{ turns: 2, totalTokens: 30 }]);
  });

  it('turns per minute counted in PostgreSQL hold across both handlers', async () => {
    const scripted = scriptedModel([textStep('Hello there')]);
    const [a, b] = [0, 1].map(() => {
      const pool = new pg.Pool({ connectionString: url, max: 4 });
      pools.push(pool);
      const limits = createTurnLimits({ turnsPerMinute: 3, postgres: { pool, schemaName: schema }, keyPrefix: `${schema}:` });
      return chatFixture(scripted.model, { driver: createPostgresDriver({ pool, schema }), handler: { limits } });
    });
    expect((await turn(a!)).status).toBe(200);
    expect((await turn(b!)).status).toBe(200);
    expect((await turn(a!)).status).toBe(200);
    const refused = await turn(b!);
    expect(refused.status).toBe(429);
    const body = (await refused.json()) as { error: { code: string; retryAfter: number } };
    expect(body.error.code).toBe('RATE_LIMITED');
    expect(body.error.retryAfter).toBeLessThanOrEqual(60);
    expect(scripted.calls).toHaveLength(3);
    expect((await turn(a!, 'bob')).status).toBe(200);
  });
});
