import { describe, expect, it } from 'vitest';
import { ChatwireClientError } from './chatwire-client-error.js';
import { createChatClient } from './create-chat-client.js';
import { BASE, MAJORS, rows, setup, shown } from './test-support/use-chat-harness.js';

/** Auto-created chats and bad input: each major's `Chat` through the transport against the real handler. */
describe.each(MAJORS)('useChat bad input with the Chat of $name', (major) => {
  it('auto-create: with createChatOnFirstTurn a Chat talks to a chat id nobody created', async () => {
    const { client, chat, net } = setup(major, ['Welcome.'], { service: { createChatOnFirstTurn: true } });
    const chatId = crypto.randomUUID();
    const c = chat(chatId);
    await c.sendMessage({ text: 'Plan a trip to Lisbon' });
    expect(c.status).toBe('ready');
    expect(net.seen.some((r) => r.path === '/chats')).toBe(false);
    const stored = await client().getChat(chatId);
    expect(stored.chat.title).toContain('Plan a trip to Lisbon');
    expect(rows(stored)).toEqual(shown(c));
    // Another user's Chat with the same id: 404, nothing written.
    const intruder = chat(chatId, { user: 'bob' });
    await intruder.sendMessage({ text: 'mine now' });
    expect(intruder.status).toBe('error');
    expect(intruder.error).toMatchObject({ code: 'NOT_FOUND', status: 404 });
    expect((await client().getChat(chatId)).messages).toHaveLength(2);
  });

  it('bad input: an edit naming an assistant message is 404 MESSAGE_NOT_FOUND in chat.error and changes nothing', async () => {
    const { client, chat } = setup(major, ['Answer.']);
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
    const { client, chat, held, net } = setup(major, ['one two three four']);
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
