import { Chat } from '@ai-sdk/react';
import type { UIMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { ChatwireClientError } from './chatwire-client-error.js';
import { createChatwireTransport } from './create-chatwire-transport.js';
import { sseBytes } from './test-support/byte-streams.js';
import { fakeFetch, jsonResponse, streamResponse } from './test-support/fake-server.js';
import { recordUiStreamResponse } from './test-support/record-ui-stream.js';

const BASE = 'http://host/api/ai';

describe('createChatwireTransport with the Chat class of @ai-sdk/react', () => {
  it('ends with the expected assistant message and posts exactly {chatId, userMessageId, content, modelId}', async () => {
    const server = fakeFetch(() => recordUiStreamResponse('asst-42'));
    const transport = createChatwireTransport({ baseUrl: BASE, getToken: async () => 'jwt', fetch: server.fetch, modelId: 'alpha-default' });
    let n = 0;
    const chat = new Chat<UIMessage>({ id: 'chat-1', transport, generateId: () => `user-${++n}` });

    await chat.sendMessage({ text: 'weather in Paris?' }, { body: { modelId: 'beta-2', ignored: true } });

    expect(chat.status).toBe('ready');
    expect(chat.error).toBeUndefined();
    expect(server.seen).toHaveLength(1);
    const request = server.seen[0]!;
    expect(request.url).toBe('http://host/api/ai/chat');
    expect(request.headers.authorization).toBe('Bearer jwt');
    expect(request.body).toEqual({ chatId: 'chat-1', userMessageId: 'user-1', content: 'weather in Paris?', modelId: 'beta-2' });

    const [user, assistant] = chat.messages;
    expect(user).toMatchObject({ id: 'user-1', role: 'user' });
    expect(assistant!.id).toBe('asst-42');
    expect(assistant!.role).toBe('assistant');
    const text = assistant!.parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('|');
    expect(text).toBe('Grüße aus Zürich 👋 let me check — 東京?|It is sunny, 21 °C.');
    const tools = assistant!.parts.filter((p) => p.type.startsWith('tool-'));
    expect(tools).toEqual([
      expect.objectContaining({ type: 'tool-weather', toolCallId: 'call-1', state: 'output-available', input: { city: 'Paris' }, output: { city: 'Paris', temp: 21 } }),
      expect.objectContaining({ type: 'tool-weather', toolCallId: 'call-2', state: 'output-error', errorText: expect.stringContaining('Invalid input') }),
      expect.objectContaining({ type: 'tool-explode', toolCallId: 'call-3', state: 'output-error', errorText: 'boom in tool' }),
    ]);
  });

  it('uses the modelId option when the request body has none, and omits it when neither is set', async () => {
    const server = fakeFetch(() => streamResponse([sseBytes({ type: 'start' }, { type: 'finish' })]).response);
    await new Chat({ id: 'c', transport: createChatwireTransport({ baseUrl: BASE, getToken: () => 't', fetch: server.fetch, modelId: 'alpha-1' }) }).sendMessage({ text: 'a' });
    await new Chat({ id: 'c', transport: createChatwireTransport({ baseUrl: BASE, getToken: () => 't', fetch: server.fetch }) }).sendMessage({ text: 'b' });
    expect(server.seen.map((r) => (r.body as { modelId?: string }).modelId)).toEqual(['alpha-1', undefined]);
    expect(Object.keys(server.seen[1]!.body as object)).toEqual(['chatId', 'userMessageId', 'content']);
  });

  it('turns a JSON error response into chat.error carrying the server message and code', async () => {
    const server = fakeFetch(() => jsonResponse(400, { error: { code: 'MODEL_NOT_ALLOWED', message: "model 'x' is not allowed" } }));
    const errors: Error[] = [];
    const chat = new Chat({ id: 'c', transport: createChatwireTransport({ baseUrl: BASE, getToken: () => 't', fetch: server.fetch }), onError: (e) => errors.push(e) });
    await chat.sendMessage({ text: 'hi' }, { body: { modelId: 'x' } });
    expect(chat.status).toBe('error');
    expect(chat.error?.message).toBe("model 'x' is not allowed");
    expect(ChatwireClientError.is(chat.error, 'MODEL_NOT_ALLOWED')).toBe(true);
    expect(errors).toHaveLength(1);
  });

  it('stop(): asks the stop route first, closes the connection only once it answered, and passes request headers through', async () => {
    const order: string[] = [];
    let signal: AbortSignal | undefined;
    let answerStop!: () => void;
    const server = fakeFetch((request) => {
      if (request.url.endsWith('/stop')) {
        order.push('stop sent');
        return new Promise<Response>((resolve) => (answerStop = () => (order.push('stop answered'), resolve(jsonResponse(200, { stopped: true })))));
      }
      signal = request.signal;
      signal?.addEventListener('abort', () => order.push('connection closed'));
      return streamResponse([sseBytes({ type: 'start', messageId: 'a' }, { type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: 'Hel' })], { signal, hold: true }).response;
    });
    const chat = new Chat({ id: 'c', transport: createChatwireTransport({ baseUrl: BASE, getToken: () => 't', fetch: server.fetch }) });
    const done = chat.sendMessage({ text: 'hi' }, { headers: { 'x-trace': '1' } });
    while (chat.messages.length < 2 || chat.messages[1]!.parts.length < 1) await new Promise((r) => setTimeout(r, 5));
    await chat.stop();
    await done;
    while (order.length === 0) await new Promise((r) => setTimeout(r, 1));
    expect(order).toEqual(['stop sent']);
    expect(signal?.aborted).toBe(false);
    answerStop();
    while (!signal?.aborted) await new Promise((r) => setTimeout(r, 1));
    expect(order).toEqual(['stop sent', 'stop answered', 'connection closed']);
    const stop = server.seen[1]!;
    expect([stop.method, stop.url, stop.headers.authorization, stop.headers['x-trace']]).toEqual(['POST', 'http://host/api/ai/chats/c/stop', 'Bearer t', '1']);
    expect(server.seen[0]!.headers['x-trace']).toBe('1');
    expect(chat.status).toBe('ready');
    expect(chat.messages[1]!.parts).toContainEqual(expect.objectContaining({ type: 'text', text: 'Hel' }));
  });

  it('a failing stop route is retried (5xx, network) or not (4xx), reported once to onStopError, then the connection closes', async () => {
    for (const [answers, attempts] of [
      [[500, 503, 502], 3],
      [['network', 'network', 500], 3],
      [[404], 1],
    ] as const) {
      let signal: AbortSignal | undefined;
      const tried: string[] = [];
      const server = fakeFetch((request) => {
        if (request.url.endsWith('/stop')) {
          const answer = answers[tried.length]!;
          tried.push(signal?.aborted ? 'after close' : 'stop');
          if (answer === 'network') throw new TypeError('fetch failed');
          return jsonResponse(answer, { error: { code: answer === 404 ? 'NOT_FOUND' : 'INTERNAL', message: 'down' } });
        }
        signal = request.signal;
        return streamResponse([sseBytes({ type: 'start', messageId: 'a' }, { type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: 'Hel' })], { signal, hold: true }).response;
      });
      const reported: unknown[][] = [];
      const transport = createChatwireTransport({
        baseUrl: BASE,
        getToken: () => 't',
        fetch: server.fetch,
        stopRetryDelays: [0, 0],
        onStopError: (...args) => reported.push(args),
      });
      const chat = new Chat({ id: 'c', transport });
      const done = chat.sendMessage({ text: 'hi' });
      while (chat.messages.length < 2) await new Promise((r) => setTimeout(r, 1));
      await chat.stop();
      await done;
      while (!signal?.aborted) await new Promise((r) => setTimeout(r, 1));
      expect(tried).toEqual(Array(attempts).fill('stop'));
      expect(reported).toEqual([[expect.objectContaining({ status: answers[attempts - 1] === 'network' ? 0 : answers[attempts - 1] }), { chatId: 'c' }]]);
      expect(ChatwireClientError.is(reported[0]![0])).toBe(true);
      expect(chat.status).toBe('ready');
      expect(chat.error).toBeUndefined();
    }
  });

  it('maps an edit, a regenerate and a regenerate with no user message to the trigger bodies', async () => {
    const server = fakeFetch(() => streamResponse([sseBytes({ type: 'start' }, { type: 'finish' })]).response);
    const transport = createChatwireTransport({ baseUrl: BASE, getToken: () => 't', fetch: server.fetch, modelId: 'm1' });
    const user = (id: string, text: string): UIMessage => ({ id, role: 'user', parts: [{ type: 'text', text }] });
    const assistant = (id: string): UIMessage => ({ id, role: 'assistant', parts: [{ type: 'text', text: 'answer' }] });
    const send = (options: Partial<Parameters<typeof transport.sendMessages>[0]>) =>
      transport.sendMessages({ trigger: 'submit-message', chatId: 'c', messageId: undefined, messages: [], abortSignal: undefined, ...options });

    await send({ messageId: 'u1', messages: [user('u1', 'new text')] });
    await send({ messageId: undefined, messages: [user('u1', 'a'), assistant('a1'), user('u2', 'b')] });
    await send({ trigger: 'regenerate-message', messageId: 'a2', messages: [user('u1', 'a'), assistant('a1'), user('u2', 'b')] });
    await send({ trigger: 'regenerate-message', messages: [] });

    expect(server.seen.map((r) => r.body)).toEqual([
      { chatId: 'c', trigger: 'edit', userMessageId: 'u1', content: 'new text', modelId: 'm1' },
      { chatId: 'c', userMessageId: 'u2', content: 'b', modelId: 'm1' },
      { chatId: 'c', trigger: 'regenerate', userMessageId: 'u2', modelId: 'm1' },
      { chatId: 'c', trigger: 'regenerate', modelId: 'm1' },
    ]);
    await expect(send({ messages: [user('u1', 'a'), assistant('a1')] })).rejects.toMatchObject({ code: 'VALIDATION' });
  });

  it('reconnectToStream: GET /chats/:id/stream, null on 204, the running turn\'s chunks on 200', async () => {
    let running = false;
    const server = fakeFetch(() =>
      running
        ? streamResponse([sseBytes({ type: 'start', messageId: 'a9' }, { type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: 'so far' }, { type: 'text-end', id: 't' }, { type: 'finish' })]).response
        : new Response(null, { status: 204 }),
    );
    const transport = createChatwireTransport({ baseUrl: BASE, getToken: () => 't', fetch: server.fetch });
    expect(await transport.reconnectToStream({ chatId: 'c/1' })).toBeNull();
    expect([server.seen[0]!.method, server.seen[0]!.url, server.seen[0]!.headers.accept]).toEqual(['GET', 'http://host/api/ai/chats/c%2F1/stream', 'text/event-stream']);

    running = true;
    const chat = new Chat({ id: 'c', transport });
    await chat.resumeStream();
    expect(chat.status).toBe('ready');
    expect(chat.messages).toEqual([expect.objectContaining({ id: 'a9', role: 'assistant', parts: [expect.objectContaining({ type: 'text', text: 'so far' })] })]);
  });
});
