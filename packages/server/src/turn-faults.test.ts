import type { StoreDriver } from '@chatwire/storage';
import { createMemoryDriver } from '@chatwire/storage/memory';
import { describe, expect, it } from 'vitest';
import { chatFixture, readSse, type ChatFixture } from './test-support/chat-fixture.js';
import { scriptedModel, textStep, toolStep, type Script } from './test-support/scripted-model.js';

const turnBody = (chatId: string, userMessageId = 'u1') => ({ chatId, userMessageId, content: 'What collections are there?' });

/** Step 1: text and a tool call (5 parts); step 2: the answer (8 parts). */
const twoStepScript = (): Script[] => [
  [{ type: 'text-start', id: 't0' }, { type: 'text-delta', id: 't0', delta: 'Let me look. ' }, { type: 'text-end', id: 't0' }, ...toolStep('schema_list', {})],
  textStep('There are no collections yet.'),
];
const TOTAL_PARTS = 5 + 8;

/** Fails the first `times` inserts of message rows with the given role. */
function failMessageInserts(driver: StoreDriver, role: 'user' | 'assistant', times: number): StoreDriver {
  let left = times;
  const wrap = (d: StoreDriver): StoreDriver =>
    new Proxy(d, {
      get(target, key, receiver) {
        if (key === 'insert') {
          return async (collection: string, input: { data: Record<string, unknown> }) => {
            if (collection === 'ai-messages' && input.data.role === role && left > 0) {
              left--;
              throw new Error(`injected ${role} write failure`);
            }
            return target.insert(collection, input);
          };
        }
        if (key === 'transaction') {
          return <T>(fn: (tx: StoreDriver) => Promise<T>) => target.transaction((tx) => fn(wrap(tx)));
        }
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
  return wrap(driver);
}

async function expectNoTurnRows(f: ChatFixture) {
  expect(await f.rows('ai-messages')).toEqual([]);
  expect(await f.rows('ai-turns')).toEqual([]);
}

describe('turn faults leave no orphan rows', () => {
  it.each(Array.from({ length: TOTAL_PARTS }, (_, i) => i))('abort after model part %i: zero rows, chat free again', async (n) => {
    const scripted = scriptedModel(twoStepScript());
    scripted.pauseAt(n);
    const f = chatFixture(scripted.model);
    const chatId = await f.createChat('alice');
    const controller = new AbortController();
    const res = await f.request('POST', '/chat', { body: turnBody(chatId), signal: controller.signal });
    expect(res.status).toBe(200);
    const body = readSse(res);
    await scripted.emitted(n);
    controller.abort();
    scripted.release();
    const { chunks, done } = await body;
    expect(done).toBe(true);
    expect(chunks[0]!.type).toBe('start');
    expect(chunks.at(-1)!.type).toBe('abort');
    await expectNoTurnRows(f);
    const next = scriptedModel([textStep('fine')]);
    scripted.model.doStream = next.model.doStream;
    await expect.poll(async () => (await f.request('POST', '/chat', { body: turnBody(chatId, 'u2') })).status).toBe(200);
  });

  it.each([0, 2, 4, 5, 7, 12])('the provider connection dying after part %i: safe error, [DONE], zero rows', async (k) => {
    const scripted = scriptedModel(twoStepScript(), { failAfter: k, failWith: new TypeError('terminated: other side closed') });
    const f = chatFixture(scripted.model, { handler: { maxRetries: 0 } });
    const chatId = await f.createChat('alice');
    const { chunks, done } = await readSse(await f.request('POST', '/chat', { body: turnBody(chatId) }));
    expect(done).toBe(true);
    const error = chunks.find((c) => c.type === 'error');
    expect(error).toEqual({ type: 'error', errorText: 'The connection to the model provider was lost.' });
    expect(JSON.stringify(chunks)).not.toContain('other side closed');
    await expectNoTurnRows(f);
    expect((await f.request('POST', '/chat', { body: turnBody(chatId, 'u2') })).status).toBe(200);
  });

  // Every driver writes a turn in one transaction: there is one write path to test.
  describe('persistence', () => {
    const mode = (d: StoreDriver) => d;
    it('the user write failing twice leaves zero rows and tells the client', async () => {
      const f = chatFixture(scriptedModel([textStep('Answer.')]).model, {
        driver: failMessageInserts(mode(createMemoryDriver()), 'user', 2),
      });
      const chatId = await f.createChat('alice');
      const { chunks, done } = await readSse(await f.request('POST', '/chat', { body: turnBody(chatId) }));
      expect(done).toBe(true);
      expect(chunks.at(-1)).toEqual({ type: 'error', errorText: 'The reply could not be saved. Please send your message again.' });
      await expectNoTurnRows(f);
      expect(f.errors.length).toBeGreaterThan(0);
    });

    it('the assistant write failing once still ends with a paired history', async () => {
      const f = chatFixture(scriptedModel([textStep('Answer.')]).model, {
        driver: failMessageInserts(mode(createMemoryDriver()), 'assistant', 1),
      });
      const chatId = await f.createChat('alice');
      const res = await f.request('POST', '/chat', { body: turnBody(chatId) });
      const asstId = res.headers.get('x-asst-id');
      const { chunks } = await readSse(res);
      expect(chunks.at(-1)).toEqual({ type: 'finish', finishReason: 'stop' });
      expect((await f.rows('ai-messages')).map((m) => [m.recordId, m.data.role])).toEqual([
        ['u1', 'user'],
        [asstId, 'assistant'],
      ]);
      expect((await f.rows('ai-turns')).length).toBe(1);
    });

    it('the assistant write failing twice leaves no unpaired user row', async () => {
      const f = chatFixture(scriptedModel([textStep('Answer.')]).model, {
        driver: failMessageInserts(mode(createMemoryDriver()), 'assistant', 2),
      });
      const chatId = await f.createChat('alice');
      await readSse(await f.request('POST', '/chat', { body: turnBody(chatId) }));
      await expectNoTurnRows(f);
    });
  });
});

describe('DELETE /chats/:id', () => {
  it('removes every message and turn row of the chat and nothing of other chats', async () => {
    const f = chatFixture(scriptedModel([textStep('Answer.')]).model);
    const doomed = await f.createChat('alice', 'doomed');
    const kept = await f.createChat('alice', 'kept');
    const bobs = await f.createChat('bob', 'bob');
    let n = 0;
    for (const [user, chatId] of [['alice', doomed], ['alice', doomed], ['alice', kept], ['bob', bobs]] as const) {
      await readSse(await f.request('POST', '/chat', { user, body: turnBody(chatId, `m${n++}`) }));
    }
    const res = await f.request('DELETE', `/chats/${doomed}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ deleted: { chatId: doomed, messages: 4 } });
    expect((await f.rows('ai-chats')).map((c) => c.recordId).sort()).toEqual([kept, bobs].sort());
    expect(new Set((await f.rows('ai-messages')).map((m) => m.data.chatId))).toEqual(new Set([kept, bobs]));
    expect((await f.rows('ai-messages')).length).toBe(4);
    expect(new Set((await f.rows('ai-turns')).map((t) => t.data.chatId))).toEqual(new Set([kept, bobs]));
    expect((await f.request('GET', `/chats/${doomed}`)).status).toBe(404);
  });
});
