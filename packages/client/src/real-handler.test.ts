import { Chat } from '@ai-sdk/react';
import type { LanguageModelV2StreamPart } from '@ai-sdk/provider';
import { createModelRegistry } from '@chatwire/core';
import { createChatHandler } from '@chatwire/server';
import { createRecordStore } from '@chatwire/storage';
import { createMemoryDriver } from '@chatwire/storage/memory';
import { MockLanguageModelV2 } from 'ai/test';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { createAssistantMessage, createChatClient, createChatwireTransport, mergeMessages, reduceAssistantMessage } from './index.js';
import { ChatwireClientError } from './chatwire-client-error.js';
import { heldModel } from './test-support/held-model.js';

/** End to end: the client's fetch calls the real chatwire handler in-process. */
const SECRET = 'client-e2e-secret-that-is-32-bytes-long';
const usage = { inputTokens: 3, outputTokens: 2, totalTokens: 5 };
const stepOne: LanguageModelV2StreamPart[] = [
  { type: 'text-start', id: 'a' },
  { type: 'text-delta', id: 'a', delta: 'Looking… ' },
  { type: 'text-end', id: 'a' },
  { type: 'tool-call', toolCallId: 'call-1', toolName: 'records_query', input: '{"collection":"notes"}' },
  { type: 'finish', finishReason: 'tool-calls', usage },
];
const stepTwo: LanguageModelV2StreamPart[] = [
  { type: 'text-start', id: 'b' },
  { type: 'text-delta', id: 'b', delta: 'You have ' },
  { type: 'text-delta', id: 'b', delta: 'one note: Milk.' },
  { type: 'text-end', id: 'b' },
  { type: 'finish', finishReason: 'stop', usage },
];

function setup() {
  let call = 0;
  const model = new MockLanguageModelV2({
    doStream: async () => ({
      stream: new ReadableStream({
        start(c) {
          for (const part of call++ % 2 === 0 ? stepOne : stepTwo) c.enqueue(part);
          c.close();
        },
      }),
    }),
  });
  const store = createRecordStore({
    driver: createMemoryDriver(),
    collections: [
      {
        name: 'notes',
        columns: [
          { name: 'userId', type: 'string', required: true },
          { name: 'title', type: 'string', required: true },
        ],
        rules: { read: 'own', create: 'own', update: 'own', delete: 'own' },
      },
    ],
  });
  const handler = createChatHandler({ store, models: createModelRegistry({ env: {}, fallbackModel: model }), auth: { secret: SECRET }, summarizerModelId: false });
  const fetchViaHandler = (input: RequestInfo | URL, init?: RequestInit) => handler(new Request(input, init));
  const token = (sub: string) =>
    new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject(sub).setExpirationTime('1h').sign(new TextEncoder().encode(SECRET));
  return { store, handler, fetchViaHandler, token };
}

const normalize = (parts: ReadonlyArray<Record<string, unknown>>) =>
  parts
    .filter((p) => p.type !== 'step-start')
    .map(({ type, text, toolCallId, state, input, output }) => ({ type, text, toolCallId, state, input, output }));

describe('@chatwire/client against the real handler', () => {
  it('drives every route, streams a turn with a tool call into the reducer, and merges without duplicates', async () => {
    const { store, fetchViaHandler, token } = setup();
    await store.asCaller({ userId: 'alice' }).create('notes', { title: 'Milk' });
    const client = createChatClient({ baseUrl: 'http://localhost/api/ai', getToken: () => token('alice'), fetch: fetchViaHandler });

    const chat = await client.createChat({ title: 'Shopping' });
    expect((await client.renameChat(chat.recordId, 'Groceries')).title).toBe('Groceries');
    expect((await client.listChats()).chats.map((c) => c.title)).toEqual(['Groceries']);

    const turn = await client.sendMessage({ chatId: chat.recordId, content: 'list my notes' });
    let message = createAssistantMessage(turn.assistantMessageId);
    for await (const action of turn.actions) message = reduceAssistantMessage(message, action);
    expect(message.status).toBe('done');
    const text = message.parts.filter((p) => p.type === 'text').map((p) => (p as { text: string }).text).join('');
    expect(text).toBe('Looking… You have one note: Milk.');
    const tool = message.parts.find((p) => p.type === 'tool-call') as { state: string; output: { records: Array<{ data: { title: string } }> } };
    expect(tool.state).toBe('output-available');
    expect(tool.output.records.map((r) => r.data.title)).toEqual(['Milk']);

    const stored = await client.getChat(chat.recordId);
    expect(stored.messages.map((m) => m.recordId)).toEqual([turn.userMessageId, turn.assistantMessageId]);
    const merged = mergeMessages(stored.messages, { userMessageId: turn.userMessageId, content: 'list my notes', assistant: message });
    expect(merged).toHaveLength(2);

    expect(await client.deleteChat(chat.recordId)).toEqual({ chatId: chat.recordId, messages: 2 });
  });

  it('returns the server’s errors typed with code and status', async () => {
    const { fetchViaHandler, token } = setup();
    const client = createChatClient({ baseUrl: 'http://localhost/api/ai', getToken: () => token('alice'), fetch: fetchViaHandler });
    const chat = await client.createChat();
    const missing = await client.getChat('nope').catch((e: unknown) => e);
    expect(ChatwireClientError.is(missing)).toBe(true);
    expect(missing).toMatchObject({ code: 'NOT_FOUND', status: 404 });
    const badModel = await client.sendMessage({ chatId: chat.recordId, content: 'hi', modelId: 'gpt-x' }).catch((e: unknown) => e);
    expect(badModel).toMatchObject({ code: 'MODEL_NOT_ALLOWED', status: 400 });
    const first = await client.sendMessage({ chatId: chat.recordId, content: 'hi', userMessageId: 'same' });
    for await (const _ of first.actions) void _;
    const replay = await client.sendMessage({ chatId: chat.recordId, content: 'hi', userMessageId: 'same' }).catch((e: unknown) => e);
    expect(replay).toMatchObject({ code: 'DUPLICATE_MESSAGE', status: 409 });
    const anonymous = createChatClient({ baseUrl: 'http://localhost/api/ai', getToken: () => '', fetch: fetchViaHandler });
    expect(await anonymous.listChats().catch((e: unknown) => e)).toMatchObject({ code: 'UNAUTHORIZED', status: 401 });
  });

  it('useChat’s Chat class through the transport ends with the same message as the stored one', async () => {
    const { store, fetchViaHandler, token } = setup();
    await store.asCaller({ userId: 'alice' }).create('notes', { title: 'Milk' });
    const client = createChatClient({ baseUrl: 'http://localhost/api/ai', getToken: () => token('alice'), fetch: fetchViaHandler });
    const { recordId: chatId } = await client.createChat();
    const chat = new Chat({
      id: chatId,
      transport: createChatwireTransport({ baseUrl: 'http://localhost/api/ai', getToken: () => token('alice'), fetch: fetchViaHandler }),
    });
    await chat.sendMessage({ text: 'list my notes' });
    expect(chat.status).toBe('ready');
    const [user, assistant] = chat.messages;

    const stored = await client.getChat(chatId);
    expect(stored.messages.map((m) => m.recordId)).toEqual([user!.id, assistant!.id]);
    const storedParts = stored.messages[1]!.data.parts as Array<Record<string, unknown>>;
    expect(normalize(assistant!.parts as unknown as Array<Record<string, unknown>>)).toEqual(normalize(storedParts));
    expect(normalize(storedParts).map((p) => p.type)).toEqual(['text', 'tool-records_query', 'text']);
  });
});

describe('the route client’s turn routes against the real handler', () => {
  function turnSetup(service: Record<string, unknown> = {}) {
    const held = heldModel(['one two three four five', 'Edited.', 'Again.']);
    const store = createRecordStore({ driver: createMemoryDriver() });
    const handler = createChatHandler({ store, models: createModelRegistry({ env: {}, fallbackModel: held.model }), auth: { secret: SECRET }, summarizerModelId: false, ...service });
    const fetchViaHandler = (input: RequestInfo | URL, init?: RequestInit) => handler(new Request(input, init));
    const token = (sub: string) =>
      new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject(sub).setExpirationTime('1h').sign(new TextEncoder().encode(SECRET));
    const client = (user = 'alice') => createChatClient({ baseUrl: 'http://localhost/api/ai', getToken: () => token(user), fetch: fetchViaHandler });
    return { held, client };
  }
  const reduceAll = async (actions: AsyncIterable<Parameters<typeof reduceAssistantMessage>[1]>, id: string) => {
    let message = createAssistantMessage(id);
    for await (const action of actions) message = reduceAssistantMessage(message, action);
    return message;
  };

  it('stopTurn keeps the partial answer (status stopped), resumeTurn replays the running turn, null and stopped:false when idle', async () => {
    const { held, client } = turnSetup();
    const api = client();
    const { recordId: chatId } = await api.createChat();
    expect(await api.resumeTurn(chatId)).toBeNull();
    expect(await api.stopTurn(chatId)).toEqual({ stopped: false });

    held.holdAfter(2);
    const turn = await api.sendMessage({ chatId, content: 'count' });
    await held.deltas(2);
    const resumed = await api.resumeTurn(chatId);
    expect(resumed?.assistantMessageId).toBe(turn.assistantMessageId);
    const [original, replayed] = [reduceAll(turn.actions, turn.assistantMessageId), reduceAll(resumed!.actions, resumed!.assistantMessageId)];

    expect(await api.stopTurn(chatId)).toEqual({ stopped: true });
    const stored = await api.getChat(chatId);
    expect(stored.messages.map((m) => [m.recordId, m.data.content, m.data.status])).toEqual([
      [turn.userMessageId, 'count', undefined],
      [turn.assistantMessageId, 'one two ', 'stopped'],
    ]);
    for (const message of [await original, await replayed]) {
      expect(message).toMatchObject({ status: 'done', text: 'one two ', finishReason: 'stop' });
      expect(reduceAssistantMessage(message, { type: 'stop' }).status).toBe('stopped');
    }
    expect(mergeMessages(stored.messages).map((m) => m.status)).toEqual([undefined, 'stopped']);
  });

  it('streamTurn sends edit and regenerate; an unknown message is MESSAGE_NOT_FOUND, regenerate with content is VALIDATION', async () => {
    const { client } = turnSetup();
    const api = client();
    const { recordId: chatId } = await api.createChat();
    const first = await api.sendMessage({ chatId, content: 'count' });
    await reduceAll(first.actions, first.assistantMessageId);

    const edit = await api.streamTurn({ chatId, trigger: 'edit', userMessageId: first.userMessageId, content: 'rewritten' });
    expect(edit.userMessageId).toBe(first.userMessageId);
    expect((await reduceAll(edit.actions, edit.assistantMessageId)).text).toBe('Edited.');
    const regen = await api.streamTurn({ chatId, trigger: 'regenerate' });
    expect(regen.userMessageId).toBeUndefined();
    expect((await reduceAll(regen.actions, regen.assistantMessageId)).text).toBe('Again.');
    const stored = await api.getChat(chatId);
    expect(stored.messages.map((m) => [m.recordId, m.data.content])).toEqual([
      [first.userMessageId, 'rewritten'],
      [regen.assistantMessageId, 'Again.'],
    ]);

    await expect(api.streamTurn({ chatId, trigger: 'edit', userMessageId: regen.assistantMessageId, content: 'x' })).rejects.toMatchObject({ code: 'MESSAGE_NOT_FOUND', status: 404 });
    await expect(api.streamTurn({ chatId, trigger: 'regenerate', content: 'x' })).rejects.toMatchObject({ code: 'VALIDATION', status: 400 });
    await expect(client('bob').stopTurn(chatId)).rejects.toMatchObject({ code: 'NOT_FOUND', status: 404 });
    await expect(client('bob').resumeTurn(chatId)).rejects.toMatchObject({ code: 'NOT_FOUND', status: 404 });
  });
});
