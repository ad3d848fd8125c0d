import { createTurnLimits, type TurnLimits } from '@chatwire/core/limits';
import { describe, expect, it } from 'vitest';
import { chatFixture, readSse, type ChatFixture } from './test-support/chat-fixture.js';
import { scriptedModel, textStep } from './test-support/scripted-model.js';

/** Each scripted turn uses 15 tokens (10 in, 5 out). */
function setup(limits: (f: { store: ChatFixture['store'] }) => TurnLimits | undefined) {
  const scripted = scriptedModel([textStep('Hello there')]);
  // The limits may read the fixture's store, which exists only once the fixture does.
  let built: TurnLimits | undefined;
  const lazy: TurnLimits = {
    admit: async (caller) => built?.admit(caller),
    used: (caller, usage) => built?.used?.(caller, usage),
  };
  const fixture = chatFixture(scripted.model, { handler: { limits: lazy } });
  built = limits({ store: fixture.store });
  let n = 0;
  async function turn(user = 'alice') {
    const chatId = await fixture.createChat(user);
    const userMessageId = `u-${user}-${++n}`;
    const res = await fixture.request('POST', '/chat', { user, body: { chatId, userMessageId, content: 'Hi' } });
    if (res.status === 200) await readSse(res);
    return { res, userMessageId };
  }
  return { scripted, f: fixture, turn };
}

async function errorBody(res: Response) {
  return (await res.json()) as { error: { code: string; message: string; retryAfter: number } };
}

function secondsToMidnight(): number {
  const now = new Date();
  return Math.ceil((Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1) - now.getTime()) / 1000);
}

describe('per-user limits in memory, through the handler', () => {
  it('the (N+1)th turn in a minute gets 429 RATE_LIMITED with Retry-After, before any model call, storing nothing', async () => {
    const { scripted, f, turn } = setup(() => createTurnLimits({ turnsPerMinute: 2 }));
    expect((await turn()).res.status).toBe(200);
    expect((await turn()).res.status).toBe(200);
    const rows = (await f.rows('ai-messages')).length;
    const third = await turn();
    expect(third.res.status).toBe(429);
    const retryAfter = Number(third.res.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    const body = await errorBody(third.res);
    expect(body.error).toMatchObject({ code: 'RATE_LIMITED', retryAfter });
    expect(scripted.calls).toHaveLength(2);
    expect(await f.rows('ai-messages')).toHaveLength(rows);
    expect((await f.rows('ai-messages')).some((m) => m.recordId === third.userMessageId)).toBe(false);
    expect(await f.rows('ai-turns')).toHaveLength(2);
    // The refused turn freed its chat: another user is not affected.
    expect((await turn('bob')).res.status).toBe(200);
  });

  it.each([
    ['counted in memory', () => createTurnLimits({ tokensPerDay: 20 })],
    ['read from the stored turn rows', ({ store }: { store: ChatFixture['store'] }) => createTurnLimits({ tokensPerDay: 20, store })],
  ])('the daily token quota (%s): once reached, 429 QUOTA_EXCEEDED until the next UTC midnight', async (_name, make) => {
    const { scripted, f, turn } = setup(make);
    expect((await turn()).res.status).toBe(200); // 15 tokens
    expect((await turn()).res.status).toBe(200); // 30 tokens: over the quota, which counts from the next turn
    const refused = await turn();
    expect(refused.res.status).toBe(429);
    const body = await errorBody(refused.res);
    expect(body.error.code).toBe('QUOTA_EXCEEDED');
    expect(Math.abs(body.error.retryAfter - secondsToMidnight())).toBeLessThanOrEqual(2);
    expect(refused.res.headers.get('retry-after')).toBe(String(body.error.retryAfter));
    expect(scripted.calls).toHaveLength(2);
    expect(await f.rows('ai-turns')).toHaveLength(2);
    expect((await turn('bob')).res.status).toBe(200);
  });

  it('limitsFor overrides the defaults per user (plans), and null lifts a limit', async () => {
    const plans: Record<string, { turnsPerMinute: number | null }> = { pro: { turnsPerMinute: 3 }, staff: { turnsPerMinute: null } };
    const { turn } = setup(() =>
      createTurnLimits({ turnsPerMinute: 1, limitsFor: (caller) => plans[caller.userId.split('-')[0]!] }),
    );
    expect((await turn('free-1')).res.status).toBe(200);
    expect((await turn('free-1')).res.status).toBe(429);
    for (let i = 0; i < 3; i++) expect((await turn('pro-1')).res.status).toBe(200);
    expect((await turn('pro-1')).res.status).toBe(429);
    for (let i = 0; i < 5; i++) expect((await turn('staff-1')).res.status).toBe(200);
  });

  it('a limit check that fails: the turn runs by default (fail open) and the error is reported', async () => {
    const errors: unknown[] = [];
    const { scripted, turn } = setup(() =>
      createTurnLimits({ turnsPerMinute: 5, limitsFor: () => Promise.reject(new Error('plans database down')), onError: (e) => errors.push(e) }),
    );
    expect((await turn()).res.status).toBe(200);
    expect(scripted.calls).toHaveLength(1);
    expect(String(errors[0])).toContain('plans database down');
  });

  it('with failOpen: false a failing check refuses the turn with 503 UNAVAILABLE and Retry-After, storing nothing', async () => {
    const { scripted, f, turn } = setup(() =>
      createTurnLimits({ turnsPerMinute: 5, failOpen: false, limitsFor: () => new Promise(() => undefined), timeoutMs: 50 }),
    );
    const { res } = await turn();
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('5');
    expect((await errorBody(res)).error.code).toBe('UNAVAILABLE');
    expect(scripted.calls).toHaveLength(0);
    expect(await f.rows('ai-messages')).toHaveLength(0);
  });

  it('bad limit values are a CONFIGURATION error at construction', () => {
    expect(() => createTurnLimits({ turnsPerMinute: 0 })).toThrow(/turnsPerMinute must be a positive integer/);
    expect(() => createTurnLimits({ tokensPerDay: 1.5 })).toThrow(/tokensPerDay must be a positive integer/);
  });
});
