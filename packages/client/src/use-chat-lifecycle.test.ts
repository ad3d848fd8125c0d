import { Chat } from '@ai-sdk/react';
import { createModelRegistry } from '@chatwire/core';
import { createChatHandler, type ChatHandlerOptions } from '@chatwire/server';
import { createRecordStore } from '@chatwire/storage';
import { createMemoryDriver } from '@chatwire/storage/memory';
import type { UIMessage } from 'ai';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { ChatwireClientError } from './chatwire-client-error.js';
import { createChatClient } from './create-chat-client.js';
import { createChatwireTransport } from './create-chatwire-transport.js';
import { handlerFetch } from './test-support/handler-fetch.js';
import { heldModel } from './test-support/held-model.js';

/** The whole useChat lifecycle: the AI SDK's own `Chat` class drives chatwire's transport against the real handler. */
const SECRET = 'client-lifecycle-secret-32-bytes-long!!';
const BASE = 'http://localhost/api/ai';

function setup(answers: Array<string | Error>, service: Partial<ChatHandlerOptions> = {}) {
  const held = heldModel(answers);
  const store = createRecordStore({ driver: createMemoryDriver() });
  const errors: unknown[] = [];
  const handler = createChatHandler({
    store,
    models: createModelRegistry({ env: {}, fallbackModel: held.model }),
    auth: { secret: SECRET },
    summarizerModelId: false,
    onError: (error: unknown) => errors.push(error),
    ...service,
  } as ChatHandlerOptions);
  const net = handlerFetch(handler);
  const token = (sub: string) =>
    new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject(sub).setExpirationTime('1h').sign(new TextEncoder().encode(SECRET));
  const connection = (user: string) => ({ baseUrl: BASE, getToken: () => token(user), fetch: net.fetch });
  const client = (user = 'alice') => createChatClient(connection(user));
  let n = 0;
  const chat = (id: string, options: { user?: string; messages?: UIMessage[] } = {}) =>
    new Chat<UIMessage>({
      id,
      transport: createChatwireTransport(connection(options.user ?? 'alice')),
      generateId: () => `m-${++n}`,
      ...(options.messages ? { messages: options.messages } : {}),
    });
  return { held, store, errors, net, client, chat };
}

const textOf = (message: UIMessage | undefined) => (message?.parts ?? []).flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('');
const rows = (stored: { messages: Array<{ recordId: string; data: { role: string; content: string; status?: string } }> }) =>
  stored.messages.map((m) => [m.recordId, m.data.role, m.data.content]);
const turnBodies = (seen: Array<{ method: string; path: string; body: unknown }>) =>
  seen.filter((r) => r.method === 'POST' && r.path === '/chat').map((r) => r.body);

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 1));
}

describe('useChat lifecycle through createChatwireTransport and the real handler', () => {
  it('submit: sendMessage posts the new user message and the stored pair is what the Chat shows', async () => {
    const { client, chat, net } = setup(['Hello there.']);
    const { recordId: chatId } = await client().createChat();
    const c = chat(chatId);
    await c.sendMessage({ text: 'hi' });
    expect(c.status).toBe('ready');
    expect(turnBodies(net.seen)).toEqual([{ chatId, userMessageId: 'm-1', content: 'hi' }]);
    const [user, assistant] = c.messages;
    expect(textOf(assistant)).toBe('Hello there.');
    expect(rows(await client().getChat(chatId))).toEqual([
      [user!.id, 'user', 'hi'],
      [assistant!.id, 'assistant', 'Hello there.'],
    ]);
  });

  it('edit: sendMessage({ text, messageId }) rewrites that message and drops every later one, in the Chat and stored', async () => {
    const { client, chat, net, held } = setup(['One.', 'Two.', 'Edited answer.']);
    const { recordId: chatId } = await client().createChat();
    const c = chat(chatId);
    await c.sendMessage({ text: 'first' });
    await c.sendMessage({ text: 'second' });
    const firstId = c.messages[0]!.id;

    await c.sendMessage({ text: 'first, rewritten', messageId: firstId });

    expect(c.status).toBe('ready');
    expect(turnBodies(net.seen)[2]).toEqual({ chatId, trigger: 'edit', userMessageId: firstId, content: 'first, rewritten' });
    expect(held.prompts[2]).toBe('first, rewritten');
    expect(c.messages.map((m) => [m.id, m.role, textOf(m)])).toEqual([
      [firstId, 'user', 'first, rewritten'],
      [c.messages[1]!.id, 'assistant', 'Edited answer.'],
    ]);
    expect(rows(await client().getChat(chatId))).toEqual(c.messages.map((m) => [m.id, m.role, textOf(m)]));
  });

  it('regenerate: a new answer to the user message before it replaces the old answer', async () => {
    const { client, chat, net, held } = setup(['Old answer.', 'New answer.']);
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
    const { client, chat, net } = setup(['A1.', 'A2.', 'A1 again.']);
    const { recordId: chatId } = await client().createChat();
    const c = chat(chatId);
    await c.sendMessage({ text: 'q1' });
    await c.sendMessage({ text: 'q2' });
    const [q1, a1] = c.messages;

    await c.regenerate({ messageId: a1!.id });

    expect(turnBodies(net.seen)[2]).toEqual({ chatId, trigger: 'regenerate', userMessageId: q1!.id });
    expect(c.messages.map((m) => textOf(m))).toEqual(['q1', 'A1 again.']);
    expect(rows(await client().getChat(chatId))).toEqual(c.messages.map((m) => [m.id, m.role, textOf(m)]));
  });

  it('retry: regenerate() after a failed turn (nothing stored) submits the unsaved message again', async () => {
    const { client, chat, net } = setup([new Error('provider down'), 'Second try.']);
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
    expect(c.messages.map((m) => [m.id, m.role, textOf(m)])).toEqual([
      [userId, 'user', 'question'],
      [c.messages[1]!.id, 'assistant', 'Second try.'],
    ]);
    expect(rows(await client().getChat(chatId))).toEqual(c.messages.map((m) => [m.id, m.role, textOf(m)]));
  });

  it('stop: the stop route is answered before the connection closes, the partial answer is stored as stopped, the Chat ends ready', async () => {
    const { client, chat, net, held } = setup(['one two three four five six seven eight']);
    held.holdAfter(3);
    const { recordId: chatId } = await client().createChat();
    const c = chat(chatId);
    const sending = c.sendMessage({ text: 'count' });
    await held.deltas(3);
    await until(() => textOf(c.messages[1]) === 'one two three ');

    await c.stop();
    await sending;
    expect(c.status).toBe('ready');
    expect(c.error).toBeUndefined();
    // Chat.stop() resolves before the transport's cancellation ran; the stop request then completes on its own.
    await until(() => net.events.includes('POST /chat closed'));
    expect(held.aborted).toBe(true);
    const stopAnswered = net.events.indexOf(`POST /chats/${chatId}/stop 200`);
    const closed = net.events.indexOf('POST /chat closed');
    expect(stopAnswered).toBeGreaterThan(-1);
    expect(closed).toBeGreaterThan(stopAnswered);

    // "Reload": the stored history has the question and the partial answer, marked stopped.
    const stored = await client().getChat(chatId);
    expect(rows(stored)).toEqual([
      [c.messages[0]!.id, 'user', 'count'],
      [c.messages[1]!.id, 'assistant', 'one two three '],
    ]);
    expect(stored.messages[1]!.data.status).toBe('stopped');
    expect(textOf(c.messages[1])).toBe('one two three ');

    // The chat is free: the next message is answered.
    held.release();
    await c.sendMessage({ text: 'again' });
    expect(c.status).toBe('ready');
    expect((await client().getChat(chatId)).messages).toHaveLength(4);
  });

  it('a message sent right after stop() waits for the stop to be stored (no CHAT_BUSY)', async () => {
    const { client, chat, held, net } = setup(['one two three four five six', 'Next.']);
    held.holdAfter(2, 0);
    const { recordId: chatId } = await client().createChat();
    const c = chat(chatId);
    const sending = c.sendMessage({ text: 'first' });
    await held.deltas(2);
    await until(() => textOf(c.messages[1]) === 'one two ');
    const releaseStop = net.holdRequests((path) => path.endsWith('/stop')); // a slow stop route
    await c.stop();
    await sending;
    const next = c.sendMessage({ text: 'second' });
    await until(() => net.seen.some((r) => r.path.endsWith('/stop')));
    for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(turnBodies(net.seen)).toHaveLength(1); // the second turn waits for the stop
    releaseStop();
    await next;
    expect(c.error).toBeUndefined();
    expect(c.status).toBe('ready');
    const stored = await client().getChat(chatId);
    expect(stored.messages.map((m) => [m.data.content, m.data.status])).toEqual([
      ['first', undefined],
      ['one two ', 'stopped'],
      ['second', undefined],
      ['Next.', 'complete'],
    ]);
  });

  it('stop before the response headers: the turn is still stopped through the route and its pair stored', async () => {
    const { client, chat, net, held } = setup(['alpha beta gamma delta']);
    held.holdAfter(0);
    const { recordId: chatId } = await client().createChat();
    const c = chat(chatId);
    const letThrough = net.holdRequests((path) => path === '/chat'); // the request is on its way, no headers yet
    const sending = c.sendMessage({ text: 'early' });
    await until(() => net.seen.some((r) => r.path === '/chat'));
    const stopping = c.stop();
    letThrough();
    await stopping;
    await sending;
    expect(c.status).toBe('ready');
    await until(() => net.events.includes('POST /chat closed'));
    expect(net.events).toContain(`POST /chats/${chatId}/stop 200`);
    const stored = await client().getChat(chatId);
    expect(stored.messages.map((m) => [m.data.role, m.data.content, m.data.status])).toEqual([
      ['user', 'early', undefined],
      ['assistant', '', 'stopped'],
    ]);
  });

  it('resume: a second Chat with resumeStream() attaches to a turn that outlived its tab and ends with the same message', async () => {
    const { client, chat, net, held } = setup(['the whole answer arrives in the end'], { onDisconnect: 'continue' });
    held.holdAfter(2);
    const { recordId: chatId } = await client().createChat();
    const first = chat(chatId);
    const sending = first.sendMessage({ text: 'tell me' });
    await held.deltas(2);
    await until(() => first.messages.length === 2);
    net.dropAll(); // the tab is closed: a disconnect, no stop
    await sending;

    const reloaded = chat(chatId, { messages: [] });
    const resuming = reloaded.resumeStream();
    await until(() => reloaded.status === 'streaming');
    held.release();
    await resuming;

    expect(reloaded.status).toBe('ready');
    expect(reloaded.error).toBeUndefined();
    const stored = await client().getChat(chatId);
    const answer = stored.messages[1]!;
    expect(reloaded.messages.map((m) => [m.id, m.role, textOf(m)])).toEqual([[answer.recordId, 'assistant', 'the whole answer arrives in the end']]);
    expect(answer.data.content).toBe('the whole answer arrives in the end');
    expect(net.seen.filter((r) => r.path === `/chats/${chatId}/stream`).map((r) => r.status)).toEqual([200]);

    // Nothing runs any more: resumeStream gets 204, the Chat stays as it is.
    await reloaded.resumeStream();
    expect(reloaded.status).toBe('ready');
    expect(reloaded.messages).toHaveLength(1);
    expect(net.seen.filter((r) => r.path === `/chats/${chatId}/stream`).map((r) => r.status)).toEqual([200, 204]);
  });

  it('resume after a lost connection: resumeStream() on the same Chat rebuilds the partial message from the replay, no text twice', async () => {
    const { client, chat, net, held } = setup(['the whole answer arrives in the end'], { onDisconnect: 'continue' });
    held.holdAfter(2);
    const { recordId: chatId } = await client().createChat();
    const c = chat(chatId);
    const sending = c.sendMessage({ text: 'tell me' });
    await held.deltas(2);
    await until(() => textOf(c.messages[1]) === 'the whole ');
    net.failAll();
    await sending;
    expect(c.status).toBe('error');
    expect(c.error).toMatchObject({ code: 'NETWORK_ERROR', status: 0 });

    const resuming = c.resumeStream();
    await until(() => c.status === 'streaming');
    held.release();
    await resuming;

    expect(c.status).toBe('ready');
    const stored = await client().getChat(chatId);
    expect(c.messages.map((m) => [m.id, textOf(m)])).toEqual([
      [c.messages[0]!.id, 'tell me'],
      [stored.messages[1]!.recordId, 'the whole answer arrives in the end'],
    ]);
  });

  it('resume: a reader that leaves does not touch the turn, and stop() on a resumed stream stops the turn', async () => {
    const { client, chat, held } = setup(['one two three four five'], { onDisconnect: 'continue' });
    held.holdAfter(2);
    const { recordId: chatId } = await client().createChat();
    const first = chat(chatId);
    const sending = first.sendMessage({ text: 'go' });
    await held.deltas(2);
    const viewer = chat(chatId, { messages: [] });
    const resuming = viewer.resumeStream();
    await until(() => textOf(viewer.messages[0]) === 'one two ');
    await viewer.stop();
    await resuming;
    await sending;
    expect(viewer.status).toBe('ready');
    expect(first.status).toBe('ready');
    const stored = await client().getChat(chatId);
    expect(stored.messages.map((m) => [m.data.content, m.data.status])).toEqual([
      ['go', undefined],
      ['one two ', 'stopped'],
    ]);
  });

  it('resume: a resumeStream() that replaces an earlier one only closes the older reader; the turn runs on', async () => {
    const { client, chat, held, net } = setup(['one two three four five'], { onDisconnect: 'continue' });
    held.holdAfter(2);
    const { recordId: chatId } = await client().createChat();
    const first = chat(chatId);
    const sending = first.sendMessage({ text: 'go' });
    await held.deltas(2);
    const viewer = chat(chatId, { messages: [] });
    const older = viewer.resumeStream();
    await until(() => textOf(viewer.messages[0]) === 'one two ');
    const newer = viewer.resumeStream();
    await older;
    await until(() => net.seen.filter((r) => r.path === `/chats/${chatId}/stream` && r.status === 200).length === 2);
    held.release();
    await Promise.all([newer, sending]);
    expect(net.seen.some((r) => r.path.endsWith('/stop'))).toBe(false);
    expect(held.aborted).toBe(false);
    expect(viewer.messages.map((m) => textOf(m))).toEqual(['one two three four five']);
    const stored = await client().getChat(chatId);
    expect(stored.messages.map((m) => [m.data.content, m.data.status])).toEqual([
      ['go', undefined],
      ['one two three four five', 'complete'],
    ]);
  });

  it('auto-create: with createChatOnFirstTurn a Chat talks to a chat id nobody created', async () => {
    const { client, chat, net } = setup(['Welcome.'], { createChatOnFirstTurn: true });
    const chatId = crypto.randomUUID();
    const c = chat(chatId);
    await c.sendMessage({ text: 'Plan a trip to Lisbon' });
    expect(c.status).toBe('ready');
    expect(net.seen.some((r) => r.path === '/chats')).toBe(false);
    const stored = await client().getChat(chatId);
    expect(stored.chat.title).toContain('Plan a trip to Lisbon');
    expect(rows(stored)).toEqual(c.messages.map((m) => [m.id, m.role, textOf(m)]));
    // Another user's Chat with the same id: 404, nothing written.
    const intruder = chat(chatId, { user: 'bob' });
    await intruder.sendMessage({ text: 'mine now' });
    expect(intruder.status).toBe('error');
    expect(intruder.error).toMatchObject({ code: 'NOT_FOUND', status: 404 });
    expect((await client().getChat(chatId)).messages).toHaveLength(2);
  });

  it('bad input: an edit naming an assistant message is 404 MESSAGE_NOT_FOUND in chat.error and changes nothing', async () => {
    const { client, chat } = setup(['Answer.']);
    const { recordId: chatId } = await client().createChat();
    const c = chat(chatId);
    await c.sendMessage({ text: 'q' });
    const before = rows(await client().getChat(chatId));
    const assistantId = c.messages[1]!.id;
    // A Chat whose local history calls the assistant's id a user message (the SDK itself refuses to edit an assistant message).
    const confused = chat(chatId, { messages: [{ id: assistantId, role: 'user', parts: [{ type: 'text', text: 'q' }] }] });
    await confused.sendMessage({ text: 'rewritten', messageId: assistantId });
    expect(confused.status).toBe('error');
    expect(ChatwireClientError.is(confused.error, 'MESSAGE_NOT_FOUND')).toBe(true);
    expect(confused.error).toMatchObject({ status: 404 });
    expect(rows(await client().getChat(chatId))).toEqual(before);
    // A regenerate naming it: 404, and the retry as a submit finds the id stored (409), so the 404 stands.
    await confused.regenerate();
    expect(confused.error).toMatchObject({ code: 'MESSAGE_NOT_FOUND', status: 404 });
    expect(rows(await client().getChat(chatId))).toEqual(before);
  });

  it("bad input: stop and resume on another user's chat are 404, without a token 401, and nothing changes", async () => {
    const { client, chat, held, net } = setup(['one two three four'], {});
    held.holdAfter(2);
    const { recordId: chatId } = await client().createChat();
    const c = chat(chatId);
    const sending = c.sendMessage({ text: 'mine' });
    await held.deltas(2);

    await expect(client('bob').stopTurn(chatId)).rejects.toMatchObject({ code: 'NOT_FOUND', status: 404 });
    await expect(client('bob').resumeTurn(chatId)).rejects.toMatchObject({ code: 'NOT_FOUND', status: 404 });
    const anonymous = createChatClient({ baseUrl: BASE, getToken: () => '', fetch: net.fetch });
    await expect(anonymous.stopTurn(chatId)).rejects.toMatchObject({ code: 'UNAUTHORIZED', status: 401 });
    const bobsView = chat(chatId, { user: 'bob' });
    await bobsView.resumeStream();
    expect(bobsView.status).toBe('error');
    expect(bobsView.error).toMatchObject({ code: 'NOT_FOUND', status: 404 });

    held.release();
    await sending;
    expect(held.aborted).toBe(false);
    const stored = await client().getChat(chatId);
    expect(stored.messages.map((m) => [m.data.content, m.data.status])).toEqual([
      ['mine', undefined],
      ['one two three four', 'complete'],
    ]);
  });
});
