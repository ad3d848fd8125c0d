import { describe, expect, it } from 'vitest';
import { MAJORS, rows, setup, textOf, turnBodies, until } from './test-support/use-chat-harness.js';

/** stop(): each major's `Chat` through the transport against the real handler (default `onDisconnect: 'abort'`). */
describe.each(MAJORS)('useChat stop with the Chat of $name', (major) => {
  it('the stop route is answered before the connection closes, the partial answer is stored as stopped, the Chat ends ready', async () => {
    const { client, chat, net, held } = setup(major, ['one two three four five six seven eight']);
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
    const { client, chat, held, net } = setup(major, ['one two three four five six', 'Next.']);
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
    const { client, chat, net, held } = setup(major, ['alpha beta gamma delta']);
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

  for (const failure of [500, 'network'] as const) {
    it(`a stop route that fails once (${failure}) is retried and the partial answer is still stored; nothing is reported`, async () => {
      const stopErrors: unknown[] = [];
      const { client, chat, net, held } = setup(major, ['one two three four five six'], {
        transport: { onStopError: (error) => stopErrors.push(error) },
      });
      held.holdAfter(2);
      const { recordId: chatId } = await client().createChat();
      const c = chat(chatId);
      const sending = c.sendMessage({ text: 'count' });
      await held.deltas(2);
      await until(() => textOf(c.messages[1]) === 'one two ');
      net.failRequests((path) => path.endsWith('/stop'), [failure]);

      await c.stop();
      await sending;
      await until(() => net.events.includes('POST /chat closed'));

      const stops = net.events.filter((e) => e.startsWith(`POST /chats/${chatId}/stop`) && !e.endsWith('closed'));
      expect(stops).toEqual([`POST /chats/${chatId}/stop ${failure}`, `POST /chats/${chatId}/stop 200`]);
      expect(net.events.indexOf('POST /chat closed')).toBeGreaterThan(net.events.indexOf(`POST /chats/${chatId}/stop 200`));
      expect(stopErrors).toEqual([]);
      const stored = await client().getChat(chatId);
      expect(stored.messages.map((m) => [m.recordId, m.data.content, m.data.status])).toEqual([
        [c.messages[0]!.id, 'count', undefined],
        [c.messages[1]!.id, 'one two ', 'stopped'],
      ]);
      expect(c.status).toBe('ready');
      expect(textOf(c.messages[1])).toBe('one two ');
    });
  }

  it('a stop route that keeps failing is reported once to onStopError, then the connection closes (a disconnect: nothing stored)', async () => {
    const stopErrors: Array<[unknown, unknown]> = [];
    const { client, chat, net, held } = setup(major, ['one two three four five six'], {
      transport: { stopRetryDelays: [0, 0], onStopError: (error, context) => stopErrors.push([error, context]) },
    });
    held.holdAfter(2);
    const { recordId: chatId } = await client().createChat();
    const c = chat(chatId);
    const sending = c.sendMessage({ text: 'count' });
    await held.deltas(2);
    net.failRequests((path) => path.endsWith('/stop'), [503, 'network', 500]);

    await c.stop();
    await sending;
    await until(() => net.events.includes('POST /chat closed'));

    expect(net.events.filter((e) => e.includes('/stop') && !e.endsWith('closed'))).toEqual([503, 0, 500].map((s) => `POST /chats/${chatId}/stop ${s === 0 ? 'network' : s}`));
    expect(stopErrors).toEqual([[expect.objectContaining({ code: 'INTERNAL', status: 500 }), { chatId }]]);
    expect(held.aborted).toBe(true);
    expect((await client().getChat(chatId)).messages).toEqual([]);
    expect(c.status).toBe('ready');
  });
});
