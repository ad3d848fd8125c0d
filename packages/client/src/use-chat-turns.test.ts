import type { LanguageModelV2StreamPart } from '@ai-sdk/provider';
import { MockLanguageModelV2 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { MAJORS, rows, setup, shown, textOf, turnBodies } from './test-support/use-chat-harness.js';

/** Submit, edit, regenerate, retry and a tool call turn: each major's `Chat` through the transport against the real handler. */
const usage = { inputTokens: 3, outputTokens: 2, totalTokens: 5 };
const toolSteps: LanguageModelV2StreamPart[][] = [
  [
    { type: 'text-start', id: 'a' },
    { type: 'text-delta', id: 'a', delta: 'Looking… ' },
    { type: 'text-end', id: 'a' },
    { type: 'tool-call', toolCallId: 'call-1', toolName: 'records_query', input: '{"collection":"notes"}' },
    { type: 'finish', finishReason: 'tool-calls', usage },
  ],
  [
    { type: 'text-start', id: 'b' },
    { type: 'text-delta', id: 'b', delta: 'You have one note: Milk.' },
    { type: 'text-end', id: 'b' },
    { type: 'finish', finishReason: 'stop', usage },
  ],
];
const notes = {
  name: 'notes',
  columns: [
    { name: 'userId', type: 'string' as const, required: true },
    { name: 'title', type: 'string' as const, required: true },
  ],
  rules: { read: 'own' as const, create: 'own' as const, update: 'own' as const, delete: 'own' as const },
};
/** Parts without the step markers, with the fields both sides carry. */
const partsOf = (parts: ReadonlyArray<Record<string, unknown>>) =>
  parts
    .filter((p) => p.type !== 'step-start')
    .map(({ type, text, toolCallId, state, input, output }) => ({ type, text, toolCallId, state, input, output }));

describe.each(MAJORS)('useChat turns with the Chat of $name', (major) => {
  it('submit: sendMessage posts the new user message and the stored pair is what the Chat shows', async () => {
    const { client, chat, net } = setup(major, ['Hello there.']);
    const { recordId: chatId } = await client().createChat();
    const c = chat(chatId);
    await c.sendMessage({ text: 'hi' });
    expect(c.status).toBe('ready');
    expect(c.error).toBeUndefined();
    expect(turnBodies(net.seen)).toEqual([{ chatId, userMessageId: 'm-1', content: 'hi' }]);
    const [user, assistant] = c.messages;
    expect(textOf(assistant)).toBe('Hello there.');
    expect(rows(await client().getChat(chatId))).toEqual([
      [user!.id, 'user', 'hi'],
      [assistant!.id, 'assistant', 'Hello there.'],
    ]);
  });

  it('edit: sendMessage({ text, messageId }) rewrites that message and drops every later one, in the Chat and stored', async () => {
    const { client, chat, net, held } = setup(major, ['One.', 'Two.', 'Edited answer.']);
    const { recordId: chatId } = await client().createChat();
    const c = chat(chatId);
    await c.sendMessage({ text: 'first' });
    await c.sendMessage({ text: 'second' });
    const firstId = c.messages[0]!.id;

    await c.sendMessage({ text: 'first, rewritten', messageId: firstId });

    expect(c.status).toBe('ready');
    expect(turnBodies(net.seen)[2]).toEqual({ chatId, trigger: 'edit', userMessageId: firstId, content: 'first, rewritten' });
    expect(held.prompts[2]).toBe('first, rewritten');
    expect(shown(c)).toEqual([
      [firstId, 'user', 'first, rewritten'],
      [c.messages[1]!.id, 'assistant', 'Edited answer.'],
    ]);
    expect(rows(await client().getChat(chatId))).toEqual(shown(c));
  });

  it('regenerate: a new answer to the user message before it replaces the old answer', async () => {
    const { client, chat, net, held } = setup(major, ['Old answer.', 'New answer.']);
    const { recordId: chatId } = await client().createChat();
    const c = chat(chatId);
    await c.sendMessage({ text: 'question' });
    const [user, old] = c.messages;

    await c.regenerate();

    expect(c.status).toBe('ready');
    expect(turnBodies(net.seen)[1]).toEqual({ chatId, trigger: 'regenerate', userMessageId: user!.id });
    expect(held.prompts).toEqual(['question', 'question']);
    const [, fresh] = c.messages;
    expect(c.messages).toHaveLength(2);
    expect(fresh!.id).not.toBe(old!.id);
    expect(textOf(fresh)).toBe('New answer.');
    expect(rows(await client().getChat(chatId))).toEqual([
      [user!.id, 'user', 'question'],
      [fresh!.id, 'assistant', 'New answer.'],
    ]);
  });

  it('regenerate({ messageId }) of an earlier answer answers its user message again and drops the later turns', async () => {
    const { client, chat, net } = setup(major, ['A1.', 'A2.', 'A1 again.']);
    const { recordId: chatId } = await client().createChat();
    const c = chat(chatId);
    await c.sendMessage({ text: 'q1' });
    await c.sendMessage({ text: 'q2' });
    const [q1, a1] = c.messages;

    await c.regenerate({ messageId: a1!.id });

    expect(turnBodies(net.seen)[2]).toEqual({ chatId, trigger: 'regenerate', userMessageId: q1!.id });
    expect(c.messages.map((m) => textOf(m))).toEqual(['q1', 'A1 again.']);
    expect(rows(await client().getChat(chatId))).toEqual(shown(c));
  });

  it('retry: regenerate() after a failed turn (nothing stored) submits the unsaved message again', async () => {
    const { client, chat, net } = setup(major, [new Error('provider down'), 'Second try.']);
    const { recordId: chatId } = await client().createChat();
    const c = chat(chatId);
    await c.sendMessage({ text: 'question' });
    expect(c.status).toBe('error');
    expect((await client().getChat(chatId)).messages).toEqual([]);
    const userId = c.messages[0]!.id;

    await c.regenerate();

    expect(c.status).toBe('ready');
    expect(turnBodies(net.seen).slice(1)).toEqual([
      { chatId, trigger: 'regenerate', userMessageId: userId },
      { chatId, userMessageId: userId, content: 'question' },
    ]);
    expect(shown(c)).toEqual([
      [userId, 'user', 'question'],
      [c.messages[1]!.id, 'assistant', 'Second try.'],
    ]);
    expect(rows(await client().getChat(chatId))).toEqual(shown(c));
  });

  it('tool call: the server runs records_query as the caller; the Chat shows the tool part with its output, as stored', async () => {
    let call = 0;
    const model = new MockLanguageModelV2({
      doStream: async () => ({
        stream: new ReadableStream({
          start(controller) {
            for (const part of toolSteps[call++ % 2]!) controller.enqueue(part);
            controller.close();
          },
        }),
      }),
    });
    const { client, chat, store } = setup(major, [], { model, collections: [notes] });
    await store.asCaller({ userId: 'alice' }).create('notes', { title: 'Milk' });
    await store.asCaller({ userId: 'bob' }).create('notes', { title: 'Not yours' });
    const { recordId: chatId } = await client().createChat();
    const c = chat(chatId);

    await c.sendMessage({ text: 'list my notes' });

    expect(c.status).toBe('ready');
    expect(c.error).toBeUndefined();
    const assistant = c.messages[1]!;
    const parts = partsOf(assistant.parts as unknown as Array<Record<string, unknown>>);
    expect(parts.map((p) => p.type)).toEqual(['text', 'tool-records_query', 'text']);
    expect(parts[1]).toMatchObject({ toolCallId: 'call-1', state: 'output-available', input: { collection: 'notes' } });
    expect((parts[1]!.output as { records: Array<{ data: { title: string } }> }).records.map((r) => r.data.title)).toEqual(['Milk']);
    expect(textOf(assistant)).toBe('Looking… You have one note: Milk.');

    const stored = await client().getChat(chatId);
    expect(rows(stored)).toEqual([
      [c.messages[0]!.id, 'user', 'list my notes'],
      [assistant.id, 'assistant', 'Looking… You have one note: Milk.'],
    ]);
    expect(partsOf(stored.messages[1]!.data.parts as Array<Record<string, unknown>>)).toEqual(parts);
  });
});
