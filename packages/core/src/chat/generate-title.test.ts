import { createRecordStore } from '@chatwire/storage';
import { createMemoryDriver } from '@chatwire/storage/memory';
import type { LanguageModelV2 } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { AI_CHATS, AI_MESSAGES, CHAT_COLLECTIONS, type ChatData } from '../records/chat-collections.js';
import { createTitleGenerator, titleSourceOf } from './generate-title.js';

function answering(text: string): LanguageModelV2 {
  return {
    specificationVersion: 'v2',
    provider: 'test',
    modelId: 'title',
    supportedUrls: {},
    doGenerate: async () => ({
      content: [{ type: 'text', text }],
      finishReason: 'stop',
      usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
      warnings: [],
    }),
    doStream: () => Promise.reject(new Error('not streamed')),
  };
}

async function storeWithChat(data: Partial<ChatData> = {}) {
  const store = createRecordStore({ driver: createMemoryDriver() });
  for (const collection of CHAT_COLLECTIONS) store.register(collection);
  const server = store.asServer();
  await server.create(AI_CHATS, { userId: 'alice', title: 'New chat', titleSource: 'default', ...data }, { recordId: 'c1' });
  await server.create(AI_MESSAGES, { chatId: 'c1', userId: 'alice', role: 'user', content: 'Hello there\nsecond line' }, { recordId: 'u1' });
  await server.create(AI_MESSAGES, { chatId: 'c1', userId: 'alice', role: 'assistant', content: 'Hi!' }, { recordId: 'a1' });
  const chat = async () => (await server.get<ChatData>(AI_CHATS, 'c1')).data;
  return { store, chat };
}

const completed = { kind: 'completed', finishReason: 'stop' } as const;
const turn = { chatId: 'c1', authToken: undefined };

describe('titleSourceOf', () => {
  it('reads the stored source, and for rows without one: untitled is default, anything else the user’s', () => {
    expect(titleSourceOf({ userId: 'a', title: 'x', titleSource: 'generated' })).toBe('generated');
    expect(titleSourceOf({ userId: 'a', title: 'New chat' })).toBe('default');
    expect(titleSourceOf({ userId: 'a', title: 'Trip' })).toBe('user');
  });
});

describe('createTitleGenerator', () => {
  it('cleans the model’s answer: first line, no quotes, no final period', async () => {
    const { store, chat } = await storeWithChat();
    const titles = createTitleGenerator({ store, modelFor: () => answering('  "Greeting a friend."\nmore'), report: () => undefined });
    await titles.afterTurn(turn, completed);
    expect(await chat()).toMatchObject({ title: 'Greeting a friend', titleSource: 'generated' });
  });

  it('without a model, titles from the first user message', async () => {
    const { store, chat } = await storeWithChat();
    await createTitleGenerator({ store, modelFor: () => null, report: () => undefined }).afterTurn(turn, completed);
    expect(await chat()).toMatchObject({ title: 'Hello there', titleSource: 'generated' });
  });

  it('does nothing after a turn that did not complete, nor for a title the user set', async () => {
    const errors: unknown[] = [];
    const user = await storeWithChat({ title: 'Mine', titleSource: 'user' });
    const titles = createTitleGenerator({ store: user.store, modelFor: () => answering('X'), report: (e) => errors.push(e) });
    await titles.afterTurn(turn, completed);
    expect((await user.chat()).title).toBe('Mine');
    const fresh = await storeWithChat();
    const other = createTitleGenerator({ store: fresh.store, modelFor: () => answering('X'), report: (e) => errors.push(e) });
    for (const ending of [{ kind: 'stopped' }, { kind: 'aborted' }, { kind: 'failed', errorText: 'x' }, { kind: 'lost-lease' }] as const) {
      await other.afterTurn(turn, ending);
    }
    expect((await fresh.chat()).title).toBe('New chat');
    expect(errors).toEqual([]);
  });

  it('reports a model that cannot be built or fails, with stage title, and never throws', async () => {
    const { store, chat } = await storeWithChat();
    const reported: unknown[] = [];
    const titles = createTitleGenerator({
      store,
      modelFor: () => {
        throw new Error('no such model');
      },
      report: (error, context) => reported.push([String(error), context]),
    });
    await expect(titles.afterTurn(turn, completed)).resolves.toBeUndefined();
    expect(reported).toEqual([['Error: no such model', { stage: 'title', chatId: 'c1' }]]);
    expect((await chat()).title).toBe('New chat');
  });
});
