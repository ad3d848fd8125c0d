import type { ModelMessage } from 'ai';
import { describe, expect, it, vi } from 'vitest';
import { AI_MESSAGES } from '../records/chat-collections.js';
import { createCompactionConfig, SUMMARY_MESSAGE_PREFIX } from '../compaction/index.js';
import { preparePrompt } from './prepare-prompt.js';
import { scriptedModel, textStep } from './testing/scripted-model.js';
import { ALICE, turnHarness, type HarnessOptions } from './testing/turn-harness.js';
import type { TurnInput } from './turn-input.js';

const HISTORY = [
  { id: 'u1', role: 'user', content: 'one' },
  { id: 'a1', role: 'assistant', content: 'answer one' },
  { id: 'u2', role: 'user', content: 'two' },
  { id: 'a2', role: 'assistant', content: 'answer two' },
  { id: 'u3', role: 'user', content: 'three' },
  { id: 'a3', role: 'assistant', content: 'answer three' },
] as const;


/** Role and text of each prompt message: what the model is sent. */
function sent(messages: ModelMessage[]): string[] {
  return messages.map((m) => {
    const text = typeof m.content === 'string' ? m.content : m.content.map((p) => ('text' in p ? p.text : p.type)).join('');
    return `${m.role}: ${text.startsWith(SUMMARY_MESSAGE_PREFIX) ? `[summary] ${text.slice(SUMMARY_MESSAGE_PREFIX.length)}` : text}`;
  });
}

async function prepared(input: Partial<TurnInput>, setup?: (h: ReturnType<typeof turnHarness>, chatId: string) => Promise<void>, options?: HarnessOptions) {
  const h = turnHarness(options);
  const chatId = await h.createChat();
  await h.seed(chatId, HISTORY);
  await setup?.(h, chatId);
  const turn = await h.admit({ chatId, ...input }, scriptedModel([textStep('x')]).model);
  try {
    const prompt = await preparePrompt(turn, h.runtime);
    const first = await prompt.history();
    // A tool step asks again: the history is rebuilt from the store, and must be the same messages.
    expect(await prompt.history()).toEqual(first);
    return { prompt, messages: sent(first), h, turn };
  } finally {
    await turn.lease.release();
  }
}

describe('preparePrompt: what the model is sent', () => {
  it('submit: every stored message, then the new one; nothing replaced', async () => {
    const { prompt, messages } = await prepared({ userMessageId: 'u4', content: 'four' });
    expect(messages).toEqual([
      'user: one',
      'assistant: answer one',
      'user: two',
      'assistant: answer two',
      'user: three',
      'assistant: answer three',
      'user: four',
    ]);
    expect(prompt.replacedIds).toEqual([]);
    expect(prompt.userContent).toBe('four');
    expect(prompt.userRecordId).toBe('u4');
    expect(prompt.summary).toBeNull();
  });

  it('submit that creates its chat: only the new message', async () => {
    const h = turnHarness({ createChatOnFirstTurn: true });
    const turn = await h.admit({ chatId: 'new-chat', userMessageId: 'm1', content: 'hello' }, scriptedModel([textStep('x')]).model);
    const prompt = await preparePrompt(turn, h.runtime);
    const first = await prompt.history();
    expect(await prompt.history()).toEqual(first);
    await turn.lease.release();
    expect(sent(first)).toEqual(['user: hello']);
    expect(prompt.replacedIds).toEqual([]);
  });

  it('edit: the messages before the edited one, then its new text; every later message is replaced', async () => {
    const { prompt, messages } = await prepared({ trigger: 'edit', userMessageId: 'u2', content: 'two, edited' });
    expect(messages).toEqual(['user: one', 'assistant: answer one', 'user: two, edited']);
    expect(prompt.replacedIds).toEqual(['a2', 'u3', 'a3']);
    expect(prompt.userContent).toBe('two, edited');
    expect(prompt.userRecordId).toBe('u2');
  });

  it('edit of the first message: only its new text', async () => {
    const { prompt, messages } = await prepared({ trigger: 'edit', userMessageId: 'u1', content: 'one, edited' });
    expect(messages).toEqual(['user: one, edited']);
    expect(prompt.replacedIds).toEqual(['a1', 'u2', 'a2', 'u3', 'a3']);
  });

  it('regenerate: the messages up to and including its user message; every later message is replaced', async () => {
    const { prompt, messages } = await prepared({ trigger: 'regenerate', userMessageId: 'u2' });
    expect(messages).toEqual(['user: one', 'assistant: answer one', 'user: two']);
    expect(prompt.replacedIds).toEqual(['a2', 'u3', 'a3']);
    expect(prompt.userContent).toBe('two');
    expect(prompt.userRecordId).toBe('u2');
  });

  it('regenerate of the last user message replaces only its answer', async () => {
    const { prompt, messages } = await prepared({ trigger: 'regenerate' });
    expect(messages.at(-1)).toBe('user: three');
    expect(messages).toHaveLength(5);
    expect(prompt.replacedIds).toEqual(['a3']);
  });

  it('answers MESSAGE_NOT_FOUND when the trigger’s message disappeared after admission', async () => {
    const h = turnHarness();
    const chatId = await h.createChat();
    await h.seed(chatId, HISTORY);
    const turn = await h.admit({ chatId, trigger: 'edit', userMessageId: 'u2', content: 'x' }, scriptedModel([textStep('x')]).model);
    await h.server.delete(AI_MESSAGES, 'u2');
    await expect(preparePrompt(turn, h.runtime)).rejects.toMatchObject({ code: 'MESSAGE_NOT_FOUND' });
    await turn.lease.release();
  });
});

describe('preparePrompt: cached summaries', () => {
  const summaries = async (h: ReturnType<typeof turnHarness>, chatId: string) => {
    await h.seedTurn(chatId, 'a2', 'u2', { text: 'S-through-u1', throughId: 'u1' });
    await h.seedTurn(chatId, 'a3', 'u3', { text: 'S-through-a2', throughId: 'a2' });
  };

  it('submit uses the newest summary: it stands for every message up to its throughId', async () => {
    const { messages } = await prepared({ userMessageId: 'u4', content: 'four' }, summaries);
    expect(messages).toEqual(['user: [summary] S-through-a2', 'user: three', 'assistant: answer three', 'user: four']);
  });

  it('a summary stored with a turn an edit replaces is never used; an older one of a kept turn is', async () => {
    const { messages } = await prepared({ trigger: 'edit', userMessageId: 'u3', content: 'three, edited' }, summaries);
    expect(messages).toEqual(['user: [summary] S-through-u1', 'assistant: answer one', 'user: two', 'assistant: answer two', 'user: three, edited']);
  });

  it('no summary at all when every summarizing turn is replaced (regenerate)', async () => {
    const { messages } = await prepared({ trigger: 'regenerate', userMessageId: 'u2' }, summaries);
    expect(messages).toEqual(['user: one', 'assistant: answer one', 'user: two']);
  });

  it('a summary whose throughId is a replaced message is never used, even from a kept turn', async () => {
    const { messages } = await prepared({ trigger: 'edit', userMessageId: 'u2', content: 'two, edited' }, async (h, chatId) => {
      await h.seedTurn(chatId, 'a1', 'u1', { text: 'S-covers-replaced', throughId: 'a2' });
    });
    expect(messages.join('\n')).not.toContain('S-covers-replaced');
    expect(messages).toEqual(['user: one', 'assistant: answer one', 'user: two, edited']);
  });

  it('a summary made now (history over budget) is returned for the turn row, from the turn’s summarizer', async () => {
    const summarize = vi.fn(async () => 'NEW SUMMARY');
    const summarizer = vi.fn(() => summarize);
    const long = (id: string, role: 'user' | 'assistant') => ({ id, role, content: `${id} ${'words '.repeat(120)}` });
    const { prompt, messages } = await prepared(
      { userMessageId: 'u9', content: 'now' },
      async (h, chatId) => {
        await h.seed(chatId, [long('u4', 'user'), long('a4', 'assistant'), long('u5', 'user'), long('a5', 'assistant')]);
      },
      { compaction: createCompactionConfig({ contextBudget: 2_000, minKept: 2 }), summarizer },
    );
    expect(summarizer).toHaveBeenCalledWith(undefined);
    expect(summarize).toHaveBeenCalledTimes(1);
    expect(prompt.summary).toMatchObject({ text: 'NEW SUMMARY' });
    expect(HISTORY.map((m) => m.id as string).concat(['u4', 'a4', 'u5', 'a5'])).toContain(prompt.summary!.throughId);
    expect(messages[0]).toBe('user: [summary] NEW SUMMARY');
    expect(messages.at(-1)).toBe('user: now');
    expect(prompt.compaction.stages).toContain('summarize');
  });
});
