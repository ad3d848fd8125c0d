import { createRecordStore } from '@chatwire/storage';
import { createMemoryDriver } from '@chatwire/storage/memory';
import { describe, expect, it } from 'vitest';
import { chatFixture, readSse } from './test-support/chat-fixture.js';
import { scriptedModel, textStep, type Script } from './test-support/scripted-model.js';

const submit = (chatId: string, userMessageId: string, content = 'Hi') => ({ chatId, userMessageId, content });

/** Two text deltas: the turn can be paused between them (part 3 is the second delta). */
const twoDeltas = (first: string, second: string): Script => [
  { type: 'text-start', id: 't1' },
  { type: 'text-delta', id: 't1', delta: first },
  { type: 'text-delta', id: 't1', delta: second },
  { type: 'text-end', id: 't1' },
  { type: 'finish', finishReason: 'stop', usage: { inputTokens: 3, outputTokens: 2, totalTokens: 5 } },
];

describe('turn lifecycle through the handler', () => {
  it('stop keeps the partial answer: stream ends normally, pair stored with status stopped', async () => {
    const scripted = scriptedModel([twoDeltas('Partial ', 'never sent')]);
    scripted.pauseAt(2);
    const f = chatFixture(scripted.model);
    const chatId = await f.createChat('alice');
    const res = await f.request('POST', '/chat', { body: submit(chatId, 'u1') });
    const body = readSse(res);
    await scripted.emitted(2);
    const stop = await f.request('POST', `/chats/${chatId}/stop`);
    expect(await stop.json()).toEqual({ stopped: true });
    // Answered only once stored:
    const messages = await f.rows('ai-messages');
    expect(messages.map((m) => [m.recordId, m.data.role, m.data.content, m.data.status])).toEqual([
      ['u1', 'user', 'Hi', undefined],
      [res.headers.get('x-asst-id'), 'assistant', 'Partial ', 'stopped'],
    ]);
    expect((await f.rows('ai-turns'))[0]!.data.finishReason).toBe('stopped');
    scripted.release();
    const { chunks, done } = await body;
    expect(done).toBe(true);
    expect(chunks.slice(-2)).toEqual([{ type: 'text-end', id: 't1' }, { type: 'finish', finishReason: 'stop' }]);
    expect(scripted.aborted).toBe(true);
  });

  it('stop with nothing running answers stopped: false; another user gets 404, no token 401', async () => {
    const f = chatFixture(scriptedModel([textStep('x')]).model);
    const chatId = await f.createChat('alice');
    expect(await (await f.request('POST', `/chats/${chatId}/stop`)).json()).toEqual({ stopped: false });
    expect((await f.request('POST', `/chats/${chatId}/stop`, { user: 'bob' })).status).toBe(404);
    expect((await f.request('POST', `/chats/${chatId}/stop`, { user: null })).status).toBe(401);
    expect((await f.request('GET', `/chats/${chatId}/stream`, { user: 'bob' })).status).toBe(404);
  });

  it('resume: 204 when idle; a running turn is replayed byte for byte from start, with its X-Asst-Id', async () => {
    const scripted = scriptedModel([twoDeltas('One ', 'two.')]);
    scripted.pauseAt(2);
    const f = chatFixture(scripted.model);
    const chatId = await f.createChat('alice');
    expect((await f.request('GET', `/chats/${chatId}/stream`)).status).toBe(204);
    const original = await f.request('POST', '/chat', { body: submit(chatId, 'u1') });
    const originalText = original.text();
    await scripted.emitted(2);
    const resumed = await f.request('GET', `/chats/${chatId}/stream`);
    expect(resumed.status).toBe(200);
    expect(resumed.headers.get('x-asst-id')).toBe(original.headers.get('x-asst-id'));
    expect(resumed.headers.get('content-type')).toBe('text/event-stream');
    const resumedText = resumed.text();
    scripted.release();
    expect(await resumedText).toBe(await originalText);
    expect((await f.request('GET', `/chats/${chatId}/stream`)).status).toBe(204);
  });

  it("onDisconnect 'continue': a disconnected turn runs on, is stored, and can be resumed meanwhile", async () => {
    const scripted = scriptedModel([twoDeltas('Kept ', 'going.')]);
    scripted.pauseAt(2);
    const f = chatFixture(scripted.model, { handler: { onDisconnect: 'continue' } });
    const chatId = await f.createChat('alice');
    const controller = new AbortController();
    const res = await f.request('POST', '/chat', { body: submit(chatId, 'u1'), signal: controller.signal });
    await scripted.emitted(2);
    controller.abort();
    await res.body?.cancel().catch(() => undefined);
    const resumed = await f.request('GET', `/chats/${chatId}/stream`);
    scripted.release();
    const { chunks, done } = await readSse(resumed);
    expect(done).toBe(true);
    expect(chunks.at(-1)).toEqual({ type: 'finish', finishReason: 'stop' });
    await expect.poll(async () => (await f.rows('ai-messages')).length).toBe(2);
    expect((await f.rows('ai-messages'))[1]!.data.content).toBe('Kept going.');
  });

  it('edit rewrites the message and replaces everything after it; regenerate replaces the answer', async () => {
    const scripted = scriptedModel([textStep('A1'), textStep('A2'), textStep('A1 edited'), textStep('A1 again')]);
    const f = chatFixture(scripted.model);
    const chatId = await f.createChat('alice');
    await readSse(await f.request('POST', '/chat', { body: submit(chatId, 'u1', 'first') }));
    await readSse(await f.request('POST', '/chat', { body: submit(chatId, 'u2', 'second') }));
    const edit = await readSse(await f.request('POST', '/chat', { body: { chatId, trigger: 'edit', userMessageId: 'u1', content: 'first, edited' } }));
    expect(edit.chunks.at(-1)).toEqual({ type: 'finish', finishReason: 'stop' });
    expect(scripted.calls[2]!.prompt.filter((m) => m.role !== 'system').map((m) => m.role)).toEqual(['user']);
    let rows = await f.rows('ai-messages');
    expect(rows.map((m) => [m.data.role, m.data.content])).toEqual([
      ['user', 'first, edited'],
      ['assistant', 'A1 edited'],
    ]);
    expect((await f.rows('ai-turns')).length).toBe(1);

    const regen = await f.request('POST', '/chat', { body: { chatId, trigger: 'regenerate' } });
    expect(regen.status).toBe(200);
    await readSse(regen);
    rows = await f.rows('ai-messages');
    expect(rows.map((m) => [m.recordId, m.data.content])).toEqual([
      ['u1', 'first, edited'],
      [regen.headers.get('x-asst-id'), 'A1 again'],
    ]);
    expect((await f.rows('ai-turns')).map((t) => t.recordId)).toEqual([regen.headers.get('x-asst-id')]);
  });

  it('edit/regenerate bad input: assistant or foreign ids 404 MESSAGE_NOT_FOUND, content with regenerate 400, nothing written', async () => {
    const f = chatFixture(scriptedModel([textStep('A')]).model);
    const chatId = await f.createChat('alice');
    expect((await f.request('POST', '/chat', { body: { chatId, trigger: 'regenerate' } })).status).toBe(400);
    const first = await f.request('POST', '/chat', { body: submit(chatId, 'u1') });
    await readSse(first);
    const other = await f.createChat('alice');
    const before = JSON.stringify(await f.rows('ai-messages'));
    for (const body of [
      { chatId, trigger: 'edit', userMessageId: first.headers.get('x-asst-id'), content: 'x' },
      { chatId: other, trigger: 'edit', userMessageId: 'u1', content: 'x' },
      { chatId, trigger: 'regenerate', userMessageId: 'nope' },
    ]) {
      const res = await f.request('POST', '/chat', { body });
      expect(res.status).toBe(404);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('MESSAGE_NOT_FOUND');
    }
    const withContent = await f.request('POST', '/chat', { body: { chatId, trigger: 'regenerate', content: 'x' } });
    expect(withContent.status).toBe(400);
    expect(JSON.stringify(await f.rows('ai-messages'))).toBe(before);
  });

  it('createChatOnFirstTurn: a submit to an unknown id creates the chat with its first pair; foreign ids stay 404; an aborted first turn creates nothing', async () => {
    const scripted = scriptedModel([textStep('Hello!')]);
    const f = chatFixture(scripted.model, { handler: { createChatOnFirstTurn: true } });
    const res = await f.request('POST', '/chat', { body: submit('fresh-chat', 'u1', 'Plan a trip to Lisbon\nin May') });
    expect(res.status).toBe(200);
    await readSse(res);
    const chat = (await (await f.request('GET', '/chats/fresh-chat')).json()) as { chat: { title: string; userId: string }; messages: unknown[] };
    expect(chat.chat).toMatchObject({ title: 'Plan a trip to Lisbon', userId: 'alice' });
    expect(chat.messages).toHaveLength(2);
    expect((await f.request('POST', '/chat', { user: 'bob', body: submit('fresh-chat', 'b1') })).status).toBe(404);

    const slow = scriptedModel([twoDeltas('a', 'b')]);
    slow.pauseAt(1);
    scripted.model.doStream = slow.model.doStream;
    const controller = new AbortController();
    const aborted = await f.request('POST', '/chat', { body: submit('never-made', 'u9'), signal: controller.signal });
    const body = readSse(aborted);
    await slow.emitted(1);
    controller.abort();
    slow.release();
    await body;
    await expect.poll(async () => (await f.request('GET', '/chats/never-made')).status).toBe(404);
  });
});

describe.skipIf(!process.env.CHATWIRE_TEST_REDIS_URL)(
  `two handlers sharing Redis${process.env.CHATWIRE_TEST_REDIS_URL ? '' : ' (skipped: CHATWIRE_TEST_REDIS_URL not set)'}`,
  () => {
    it('a resume on B of a turn running on A is byte-identical; a stop sent to B stops it with the partial pair stored', async () => {
      const url = process.env.CHATWIRE_TEST_REDIS_URL!;
      const keyPrefix = `cw-lifecycle-${Date.now()}`;
      const store = createRecordStore({ driver: createMemoryDriver() });
      const scriptedA = scriptedModel([twoDeltas('From A ', 'never')]);
      scriptedA.pauseAt(2);
      // Separate services (their own running-turn maps and memory hubs), one store and one Redis.
      const a = chatFixture(scriptedA.model, { handler: { store, redis: { url, keyPrefix } } });
      const b = chatFixture(scriptedModel([textStep('unused')]).model, { handler: { store, redis: { url, keyPrefix } } });
      try {
        await Promise.all([a.handler.ready(), b.handler.ready()]);
        const chatId = await a.createChat('alice');
        const original = await a.request('POST', '/chat', { body: submit(chatId, 'u1') });
        const originalText = original.text();
        await scriptedA.emitted(2);
        const resumed = await b.request('GET', `/chats/${chatId}/stream`);
        expect(resumed.status).toBe(200);
        expect(resumed.headers.get('x-asst-id')).toBe(original.headers.get('x-asst-id'));
        const resumedText = resumed.text();
        const started = Date.now();
        expect(await (await b.request('POST', `/chats/${chatId}/stop`)).json()).toEqual({ stopped: true });
        expect(Date.now() - started).toBeLessThan(5_000);
        scriptedA.release();
        expect(await resumedText).toBe(await originalText);
        const rows = (await store.asServer().query('ai-messages', { limit: 10 })).records;
        expect(rows.map((m) => [m.data.content, m.data.status])).toEqual([
          ['Hi', undefined],
          ['From A ', 'stopped'],
        ]);
      } finally {
        await Promise.all([a.handler.close(), b.handler.close()]);
      }
    });

    it('an unreachable Redis fails ready() with the URL and no credentials', async () => {
      const f = chatFixture(scriptedModel([textStep('x')]).model, { handler: { redis: { url: 'redis://user:secret@127.0.0.1:1' } } });
      const error = await f.handler.ready().then(() => null, (e: unknown) => e as Error);
      expect(error?.message).toContain('127.0.0.1:1');
      expect(error?.message).not.toContain('secret');
      await f.handler.close();
    });
  },
);
