import { describe, expect, it, vi } from 'vitest';
import type { RecordAccess } from '@chatwire/storage';
import { AI_CHATS, AI_MESSAGES, AI_TURNS, AI_USAGE } from '../records/chat-collections.js';
import { userMessageRecordId } from '../records/message-record-id.js';
import type { TurnInput } from './turn-input.js';
import { preparePrompt } from './prepare-prompt.js';
import { saveTurn, type TurnRecord } from './save-turn.js';
import { scriptedModel, textStep } from './testing/scripted-model.js';
import { turnHarness, type HarnessOptions } from './testing/turn-harness.js';

const RECORD: TurnRecord = {
  status: 'complete',
  finishReason: 'stop',
  usage: { inputTokens: 12, outputTokens: 7, totalTokens: 19, reasoningTokens: undefined, cachedInputTokens: 3 },
  steps: 1,
};

const HISTORY = [
  { id: 'u1', role: 'user', content: 'one' },
  { id: 'a1', role: 'assistant', content: 'answer one' },
  { id: 'u2', role: 'user', content: 'two' },
  { id: 'a2', role: 'assistant', content: 'answer two' },
] as const;

/** An admitted, prepared turn whose answer is `answer` (as if streamed), ready to be saved. */
async function readyTurn(input: Partial<TurnInput>, options: HarnessOptions & { chatId?: string; history?: boolean } = {}) {
  const { chatId: fixedId, history = true, ...harness } = options;
  const h = turnHarness(harness);
  const chatId = fixedId ?? (await h.createChat(undefined, 'Original title'));
  if (history) {
    await h.seed(chatId, HISTORY);
    await h.seedTurn(chatId, 'a1', 'u1');
    await h.seedTurn(chatId, 'a2', 'u2');
  }
  const turn = await h.admit({ chatId, ...input }, scriptedModel([textStep('x')]).model);
  const prompt = await preparePrompt(turn, h.runtime);
  turn.answer.apply({ type: 'start-step' });
  turn.answer.apply({ type: 'text-start', id: 't' });
  turn.answer.appendText('t', 'the new answer');
  turn.answer.apply({ type: 'text-end', id: 't' });
  return { h, chatId, turn, prompt };
}

const ids = (rows: Array<{ recordId: string }>) => rows.map((row) => row.recordId);

/** The usage ledger's rows, without the day (the store's clock). */
async function ledger(h: ReturnType<typeof turnHarness>) {
  return (await h.rows(AI_USAGE)).map(({ data: { date, ...row } }) => (expect(date).toMatch(/^\d{4}-\d{2}-\d{2}$/), row));
}

/** Makes every transaction of `access` fail (the first `times` ones), after running its writes. */
function failingTransactions(access: RecordAccess, times: number): { attempts: () => number; access: RecordAccess } {
  let attempts = 0;
  const proxy = new Proxy(access, {
    get(target, key, receiver) {
      if (key !== 'transaction') return Reflect.get(target, key, receiver) as unknown;
      return <T>(fn: (tx: RecordAccess) => Promise<T>) =>
        target.transaction(async (tx) => {
          attempts++;
          const result = await fn(tx);
          if (attempts <= times) throw new Error('connection terminated');
          return result;
        });
    },
  });
  return { attempts: () => attempts, access: proxy };
}

describe('saveTurn: what a stored turn writes', () => {
  it('submit: the user row, the assistant row and the turn row, with the turn’s ids, model and usage', async () => {
    const { h, chatId, turn, prompt } = await readyTurn({ userMessageId: 'u3', content: 'three' });
    expect(await saveTurn(h.server, turn, prompt, RECORD)).toBe('stored');
    const messages = await h.messages(chatId);
    expect(ids(messages)).toEqual(['u1', 'a1', 'u2', 'a2', 'u3', turn.id]);
    expect(messages[4]!.data).toEqual({ chatId, userId: 'alice', role: 'user', content: 'three', parts: [{ type: 'text', text: 'three' }] });
    // Stored under the client's id (no other owner has it), with that id in the row.
    const stored = await h.server.find(AI_MESSAGES, 'u3');
    expect(stored?.data).toEqual({ ...messages[4]!.data, messageId: 'u3' });
    expect(await h.server.find(AI_MESSAGES, userMessageRecordId('alice', 'u3'))).toBeNull();
    expect(messages[5]!.data).toEqual({
      chatId,
      userId: 'alice',
      role: 'assistant',
      content: 'the new answer',
      parts: [{ type: 'step-start' }, { type: 'text', text: 'the new answer', state: 'done' }],
      status: 'complete',
    });
    const row = await h.server.find(AI_TURNS, turn.id);
    expect(row?.data).toMatchObject({
      chatId,
      userId: 'alice',
      userMessageId: 'u3',
      assistantMessageId: turn.id,
      trigger: 'submit',
      modelId: 'test-model',
      provider: 'test',
      finishReason: 'stop',
      usage: { input: 12, output: 7, total: 19, reasoning: null, cached: 3 },
      steps: 1,
      toolCalls: [],
      compaction: expect.objectContaining({ withinBudget: true }),
    });
    expect(row?.data).not.toHaveProperty('summary');
    expect(typeof row?.data.durationMs).toBe('number');
    // The turn's tokens, in the ledger row of its user, day (of the turn row) and model.
    expect(row?.data.usageCounted).toBe(true);
    expect(await h.rows(AI_USAGE)).toMatchObject([
      {
        data: { userId: 'alice', date: row!.createdAt.slice(0, 10), modelId: 'test-model', turns: 1, inputTokens: 12, outputTokens: 7, totalTokens: 19, lastTurnId: turn.id },
      },
    ]);
    await turn.lease.release();
  });

  it('a turn that creates its chat writes the chat row (the caller’s, titled from the message) with the pair', async () => {
    const { h, turn, prompt } = await readyTurn(
      { userMessageId: 'm1', content: 'Plan a trip to Rome' },
      { createChatOnFirstTurn: true, chatId: 'new-chat', history: false },
    );
    expect(await h.server.find(AI_CHATS, 'new-chat')).toBeNull();
    expect(await saveTurn(h.server, turn, prompt, RECORD)).toBe('stored');
    expect((await h.server.find(AI_CHATS, 'new-chat'))?.data).toEqual({ userId: 'alice', title: 'Plan a trip to Rome', titleSource: 'default' });
    expect(ids(await h.messages('new-chat'))).toEqual(['m1', turn.id]);
    await turn.lease.release();
  });

  it('edit: the edited content, every later message and turn row deleted, the new pair written', async () => {
    const { h, chatId, turn, prompt } = await readyTurn({ trigger: 'edit', userMessageId: 'u1', content: 'one, edited' });
    expect(await saveTurn(h.server, turn, prompt, RECORD)).toBe('stored');
    const messages = await h.messages(chatId);
    expect(ids(messages)).toEqual(['u1', turn.id]);
    expect(messages[0]!.data).toMatchObject({ content: 'one, edited', parts: [{ type: 'text', text: 'one, edited' }] });
    expect(ids(await h.rows(AI_TURNS, chatId))).toEqual([turn.id]);
    expect((await h.server.find(AI_TURNS, turn.id))?.data).toMatchObject({ trigger: 'edit', userMessageId: 'u1' });
    // The ledger is not a view of the turn rows: an edit adds its turn and takes nothing out.
    expect(await ledger(h)).toEqual([{ userId: 'alice', modelId: 'test-model', turns: 1, inputTokens: 12, outputTokens: 7, totalTokens: 19, lastTurnId: turn.id }]);
    await turn.lease.release();
  });

  it('regenerate: the user message unchanged, the later rows replaced by the new answer', async () => {
    const { h, chatId, turn, prompt } = await readyTurn({ trigger: 'regenerate', userMessageId: 'u2' });
    expect(await saveTurn(h.server, turn, prompt, RECORD)).toBe('stored');
    const messages = await h.messages(chatId);
    expect(ids(messages)).toEqual(['u1', 'a1', 'u2', turn.id]);
    expect(messages[2]!.data.content).toBe('two');
    expect(ids(await h.rows(AI_TURNS, chatId))).toEqual(['a1', turn.id]);
    await turn.lease.release();
  });

  it('stores a summary the turn produced in its turn row', async () => {
    const { h, turn, prompt } = await readyTurn({ userMessageId: 'u3', content: 'three' });
    const summary = { text: 'S', throughId: 'a1' };
    await saveTurn(h.server, turn, { ...prompt, summary }, RECORD);
    expect((await h.server.find(AI_TURNS, turn.id))?.data.summary).toEqual(summary);
    await turn.lease.release();
  });

  it('a rename made while the turn ran survives the save: the title stays, updatedAt moves on', async () => {
    const { h, chatId, turn, prompt } = await readyTurn({ userMessageId: 'u3', content: 'three' });
    const renamed = await h.store.asCaller({ userId: 'alice' }).update(AI_CHATS, chatId, { title: 'Renamed meanwhile' });
    h.advanceStoreClock(1_000);
    expect(await saveTurn(h.server, turn, prompt, RECORD)).toBe('stored');
    const chat = await h.server.find(AI_CHATS, chatId);
    expect(chat?.data.title).toBe('Renamed meanwhile');
    expect(Date.parse(chat!.updatedAt)).toBeGreaterThan(Date.parse(renamed.updatedAt));
    await turn.lease.release();
  });
});

describe('saveTurn: what it refuses to store', () => {
  async function snapshot(h: ReturnType<typeof turnHarness>) {
    return JSON.stringify([await h.rows(AI_CHATS), await h.rows(AI_MESSAGES), await h.rows(AI_TURNS), await h.rows(AI_USAGE)]);
  }

  it('a chat deleted while the turn ran: chat-deleted, nothing written', async () => {
    const { h, chatId, turn, prompt } = await readyTurn({ userMessageId: 'u3', content: 'three' });
    await h.server.delete(AI_CHATS, chatId);
    const before = await snapshot(h);
    expect(await saveTurn(h.server, turn, prompt, RECORD)).toBe('chat-deleted');
    expect(await snapshot(h)).toBe(before);
    await turn.lease.release();
  });

  it('a turn whose lease expired and was taken by another: lost-lease, no message or turn row written', async () => {
    const { h, chatId, turn, prompt } = await readyTurn({ trigger: 'edit', userMessageId: 'u1', content: 'one, edited' });
    h.advanceStoreClock(h.runtime.leaseTtlMs + 1);
    expect(await h.store.leases.acquire(`chat:${chatId}`, { ttlMs: 15_000 })).not.toBeNull();
    const messagesBefore = JSON.stringify(await h.rows(AI_MESSAGES));
    const turnsBefore = JSON.stringify(await h.rows(AI_TURNS));
    expect(await saveTurn(h.server, turn, prompt, RECORD)).toBe('lost-lease');
    expect(JSON.stringify(await h.rows(AI_MESSAGES))).toBe(messagesBefore);
    expect(JSON.stringify(await h.rows(AI_TURNS))).toBe(turnsBefore);
  });

  it('a turn whose lease expired but was not taken over still stores (its lease is still its own)', async () => {
    const { h, chatId, turn, prompt } = await readyTurn({ userMessageId: 'u3', content: 'three' });
    h.advanceStoreClock(h.runtime.leaseTtlMs + 1);
    expect(await turn.lease.renew()).toBe(true);
    expect(await saveTurn(h.server, turn, prompt, RECORD)).toBe('stored');
    expect(ids(await h.messages(chatId)).slice(-2)).toEqual(['u3', turn.id]);
    await turn.lease.release();
  });

  // Bug: writeRows creates the new chat row (and touches an existing chat) before checking the lease, and
  // returning 'lost-lease' commits the transaction: a turn that lost its chat leaves that chat row behind.
  it('a turn that lost its lease creates no chat row either', async () => {
    const { h, turn, prompt } = await readyTurn(
      { userMessageId: 'm1', content: 'first message' },
      { createChatOnFirstTurn: true, chatId: 'new-chat', history: false },
    );
    h.advanceStoreClock(h.runtime.leaseTtlMs + 1);
    expect(await h.store.leases.acquire('chat:new-chat', { ttlMs: 15_000 })).not.toBeNull();
    expect(await saveTurn(h.server, turn, prompt, RECORD)).toBe('lost-lease');
    expect(await h.server.find(AI_CHATS, 'new-chat')).toBeNull();
  });

  it('retries a failed transaction once: the second attempt stores every row exactly once', async () => {
    const { h, chatId, turn, prompt } = await readyTurn({ trigger: 'regenerate', userMessageId: 'u2' });
    const failing = failingTransactions(h.server, 1);
    expect(await saveTurn(failing.access, turn, prompt, RECORD)).toBe('stored');
    expect(failing.attempts()).toBe(2);
    expect(ids(await h.messages(chatId))).toEqual(['u1', 'a1', 'u2', turn.id]);
    expect(ids(await h.rows(AI_TURNS, chatId))).toEqual(['a1', turn.id]);
    expect(await ledger(h)).toMatchObject([{ turns: 1, totalTokens: 19 }]);
    await turn.lease.release();
  });

  it('a retry after a commit reported as failed (connection lost at COMMIT) counts the turn once', async () => {
    vi.useFakeTimers({ toFake: ['Date'] }); // the retry writes the very same turn row
    try {
      const { h, turn, prompt } = await readyTurn({ userMessageId: 'u3', content: 'three' });
      let attempts = 0;
      const committedThenFailed = new Proxy(h.server, {
        get(target, key, receiver) {
          if (key !== 'transaction') return Reflect.get(target, key, receiver) as unknown;
          return async <T>(fn: (tx: RecordAccess) => Promise<T>) => {
            const result = await target.transaction(fn);
            if (++attempts === 1) throw new Error('connection terminated');
            return result;
          };
        },
      });
      expect(await saveTurn(committedThenFailed, turn, prompt, RECORD)).toBe('stored');
      expect(attempts).toBe(2);
      expect(await ledger(h)).toMatchObject([{ turns: 1, inputTokens: 12, totalTokens: 19 }]);
      await turn.lease.release();
    } finally {
      vi.useRealTimers();
    }
  });

  it('throws when both attempts fail, leaving nothing written', async () => {
    const { h, turn, prompt } = await readyTurn({ trigger: 'edit', userMessageId: 'u1', content: 'one, edited' });
    const before = await snapshot(h);
    const failing = failingTransactions(h.server, 2);
    await expect(saveTurn(failing.access, turn, prompt, RECORD)).rejects.toThrow('connection terminated');
    expect(failing.attempts()).toBe(2);
    expect(await snapshot(h)).toBe(before);
    await turn.lease.release();
  });
});
