import { createMemoryDriver } from '@chatwire/storage/memory';
import { describe, expect, it } from 'vitest';
import { chatFixture, readSse, type ChatFixture } from './test-support/chat-fixture.js';
import { scriptedModel, textStep, type Script } from './test-support/scripted-model.js';

let n = 0;
async function turn(f: ChatFixture, user: string, modelId: string): Promise<void> {
  const chatId = await f.createChat(user);
  const res = await f.request('POST', '/chat', { user, body: { chatId, userMessageId: `u${++n}`, content: 'Hi', modelId } });
  expect(res.status).toBe(200);
  await readSse(res);
}

async function usage(f: ChatFixture, query = '', user = 'alice') {
  const res = await f.request('GET', `/usage${query}`, { user });
  return { status: res.status, body: (await res.json()) as { usage?: unknown[]; error?: { code: string; message: string } } };
}

/** A step of `input` + `output` tokens. */
const step = (input: number, output: number): Script => [
  ...textStep('Hello there').slice(0, -1),
  { type: 'finish', finishReason: 'stop', usage: { inputTokens: input, outputTokens: output, totalTokens: input + output } },
];

describe('GET /usage', () => {
  it('sums the caller’s own turns per UTC day and model, sorted by date then model', async () => {
    let clock = Date.parse('2026-03-01T10:00:00Z');
    const scripted = scriptedModel([step(10, 5), step(20, 7), step(1, 1), step(100, 50), step(3, 3)]);
    const f = chatFixture(scripted.model, { driver: createMemoryDriver({ now: () => clock }) });
    await turn(f, 'alice', 'beta-5.4'); // 10 + 5
    await turn(f, 'alice', 'alpha-sonnet-4-6'); // 20 + 7
    await turn(f, 'alice', 'alpha-sonnet-4-6'); // 1 + 1
    clock = Date.parse('2026-03-02T23:59:59Z');
    await turn(f, 'alice', 'alpha-sonnet-4-6'); // 100 + 50
    await turn(f, 'bob', 'alpha-sonnet-4-6'); // someone else's

    const { status, body } = await usage(f, '?from=2026-03-01&to=2026-03-02');
    expect(status).toBe(200);
    expect(body.usage).toEqual([
      { date: '2026-03-01', modelId: 'alpha-sonnet-4-6', turns: 2, inputTokens: 21, outputTokens: 8, totalTokens: 29 },
      { date: '2026-03-01', modelId: 'beta-5.4', turns: 1, inputTokens: 10, outputTokens: 5, totalTokens: 15 },
      { date: '2026-03-02', modelId: 'alpha-sonnet-4-6', turns: 1, inputTokens: 100, outputTokens: 50, totalTokens: 150 },
    ]);
    expect((await usage(f, '?from=2026-03-02&to=2026-03-02', 'bob')).body.usage).toEqual([
      { date: '2026-03-02', modelId: 'alpha-sonnet-4-6', turns: 1, inputTokens: 3, outputTokens: 3, totalTokens: 6 },
    ]);
    expect((await usage(f, '?from=2026-03-01&to=2026-03-01')).body.usage).toHaveLength(2);
    expect((await usage(f, '?from=2026-02-01&to=2026-02-28')).body.usage).toEqual([]);
    expect((await f.request('GET', '/usage', { user: null })).status).toBe(401);
  });

  it('defaults to the last 30 days, today included', async () => {
    const f = chatFixture(scriptedModel([step(4, 2)]).model);
    await turn(f, 'alice', 'alpha-sonnet-4-6');
    await turn(f, 'alice', 'alpha-sonnet-4-6');
    const today = new Date().toISOString().slice(0, 10);
    expect((await usage(f)).body.usage).toEqual([
      { date: today, modelId: 'alpha-sonnet-4-6', turns: 2, inputTokens: 8, outputTokens: 4, totalTokens: 12 },
    ]);
  });

  it('a stopped turn counts', async () => {
    const scripted = scriptedModel([
      [
        { type: 'text-start', id: 't1' },
        { type: 'text-delta', id: 't1', delta: 'Partial ' },
        { type: 'text-delta', id: 't1', delta: 'never sent' },
        { type: 'text-end', id: 't1' },
        { type: 'finish', finishReason: 'stop', usage: { inputTokens: 3, outputTokens: 2, totalTokens: 5 } },
      ],
    ]);
    scripted.pauseAt(2);
    const f = chatFixture(scripted.model);
    const chatId = await f.createChat('alice');
    const res = await f.request('POST', '/chat', { body: { chatId, userMessageId: 'u-stop', content: 'Hi' } });
    const body = readSse(res);
    await scripted.emitted(2);
    expect(await (await f.request('POST', `/chats/${chatId}/stop`)).json()).toEqual({ stopped: true });
    scripted.release();
    await body;
    expect((await usage(f)).body.usage).toMatchObject([{ modelId: 'alpha-sonnet-4-6', turns: 1 }]);
  });

  it.each([
    ['?from=yesterday', 'from'],
    ['?from=2026-02-30', 'from'],
    ['?to=2026-13-01', 'to'],
    ['?from=2026-1-01', 'from'],
    ['?from=2026-03-02&to=2026-03-01', 'from'],
    ['?from=2025-01-01&to=2026-03-01', 'from'],
  ])('bad input %s: 400 VALIDATION naming %s', async (query, field) => {
    const f = chatFixture(scriptedModel([step(1, 1)]).model);
    const { status, body } = await usage(f, query);
    expect(status).toBe(400);
    expect(body.error!.code).toBe('VALIDATION');
    expect(body.error!.message).toContain(`'${field}'`);
  });

  it('a full 366-day range is allowed', async () => {
    const f = chatFixture(scriptedModel([step(1, 1)]).model);
    expect((await usage(f, '?from=2025-03-01&to=2026-03-01')).status).toBe(200);
  });
});
