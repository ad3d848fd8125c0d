import { Chat } from '@ai-sdk/react';
import { createModelRegistry } from '@chatwire/core';
import { createChatHandler } from '@chatwire/server';
import { createRecordStore } from '@chatwire/storage';
import { createMemoryDriver } from '@chatwire/storage/memory';
import { MockLanguageModelV2 } from 'ai/test';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { chunkToAction, createAssistantMessage, createBranchSwitcher, createChatClient, createChatwireTransport, reduceAssistantMessage } from './index.js';

const SECRET = 'client-branch-secret-that-is-32-bytes';
const usage = { inputTokens: 1, outputTokens: 1, totalTokens: 2 };

function setup() {
  let call = 0;
  const model = new MockLanguageModelV2({
    doStream: async () => {
      const text = `answer ${++call}`;
      return {
        stream: new ReadableStream({
          start(c) {
            for (const part of [
              { type: 'text-start', id: 't' },
              { type: 'text-delta', id: 't', delta: text },
              { type: 'text-end', id: 't' },
              { type: 'finish', finishReason: 'stop', usage },
            ] as const)
              c.enqueue(part);
            c.close();
          },
        }),
      };
    },
  });
  const store = createRecordStore({ driver: createMemoryDriver() });
  const handler = createChatHandler({ store, models: createModelRegistry({ env: {}, fallbackModel: model }), auth: { secret: SECRET }, summarizerModelId: false, history: 'tree' });
  const connection = {
    baseUrl: 'http://localhost/api/ai',
    getToken: () => new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject('alice').setExpirationTime('1h').sign(new TextEncoder().encode(SECRET)),
    fetch: (input: RequestInfo | URL, init?: RequestInit) => handler(new Request(input, init)),
  };
  return { connection, client: createChatClient(connection) };
}

describe('branches in @chatwire/client', () => {
  it('a start chunk with a branch is the branch action; a linear start is none', () => {
    const branch = { parentId: 'u1', index: 1, count: 2, prevId: 'a1', nextId: null };
    expect(chunkToAction({ type: 'start', messageId: 'a2', messageMetadata: { branch } })).toEqual({ type: 'branch', branch });
    expect(chunkToAction({ type: 'start', messageId: 'a2' })).toBeUndefined();
    expect(chunkToAction({ type: 'start', messageMetadata: { branch: { index: 'x' } } })).toBeUndefined();
    expect(reduceAssistantMessage(createAssistantMessage('a2'), { type: 'branch', branch }).branch).toEqual(branch);
  });

  it('the reducer learns the new answer’s place from the stream; switchBranch returns the other path, for the client and for useChat', async () => {
    const { client, connection } = setup();
    const { recordId: chatId } = await client.createChat();
    const first = await client.sendMessage({ chatId, content: 'hi', userMessageId: 'u1' });
    for await (const _ of first.actions) void _;
    const again = await client.streamTurn({ chatId, trigger: 'regenerate' });
    let message = createAssistantMessage(again.assistantMessageId);
    for await (const action of again.actions) message = reduceAssistantMessage(message, action);
    expect(message.branch).toEqual({ parentId: 'u1', index: 1, count: 2, prevId: first.assistantMessageId, nextId: null });

    const stored = await client.getChat(chatId);
    expect(stored.messages.map((m) => [m.recordId, m.data.content, m.branch?.index, m.branch?.count])).toEqual([
      ['u1', 'hi', 0, 1],
      [again.assistantMessageId, 'answer 2', 1, 2],
    ]);

    const switched = await client.switchBranch(chatId, first.assistantMessageId);
    expect(switched.messages.map((m) => m.data.content)).toEqual(['hi', 'answer 1']);
    expect((await client.getChat(chatId)).messages.at(-1)!.recordId).toBe(first.assistantMessageId);

    const chat = new Chat({ id: chatId, transport: createChatwireTransport(connection) });
    const ui = await createBranchSwitcher(connection).switchBranch(chatId, again.assistantMessageId);
    chat.messages = ui;
    expect(chat.messages.map((m) => [m.id, m.role, m.parts, m.metadata])).toEqual([
      ['u1', 'user', [{ type: 'text', text: 'hi' }], { branch: { parentId: null, index: 0, count: 1, prevId: null, nextId: null } }],
      [again.assistantMessageId, 'assistant', [{ type: 'step-start' }, { type: 'text', text: 'answer 2', state: 'done' }], expect.objectContaining({ branch: expect.objectContaining({ index: 1, prevId: first.assistantMessageId }) })],
    ]);
    await expect(client.switchBranch(chatId, 'nope')).rejects.toMatchObject({ status: 404, code: 'MESSAGE_NOT_FOUND' });
  });
});
