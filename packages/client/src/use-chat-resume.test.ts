import { describe, expect, it } from 'vitest';
import { MAJORS, setup, textOf, until } from './test-support/use-chat-harness.js';

/** resume: each major's `Chat` re-attaches through the transport to a running turn of the real handler (`onDisconnect: 'continue'`). */
describe.each(MAJORS)('useChat resume with the Chat of $name', (major) => {
  it('a second Chat with resumeStream() attaches to a turn that outlived its tab and ends with the same message', async () => {
    const { client, chat, net, held } = setup(major, ['the whole answer arrives in the end'], { service: { onDisconnect: 'continue' } });
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
    const { client, chat, net, held } = setup(major, ['the whole answer arrives in the end'], { service: { onDisconnect: 'continue' } });
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

  it('a reader that leaves does not touch the turn, and stop() on a resumed stream stops the turn', async () => {
    const { client, chat, held } = setup(major, ['one two three four five'], { service: { onDisconnect: 'continue' } });
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

  it('a resumeStream() that replaces an earlier one only closes the older reader; the turn runs on', async () => {
    const { client, chat, held, net } = setup(major, ['one two three four five'], { service: { onDisconnect: 'continue' } });
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
});
