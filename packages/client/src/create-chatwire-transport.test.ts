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

  it('passes request headers through and stop() aborts the request', async () => {
    let signal: AbortSignal | undefined;
    const server = fakeFetch((request) => {
      signal = request.signal;
      return streamResponse([sseBytes({ type: 'start', messageId: 'a' }, { type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: 'Hel' })], { signal, hold: true }).response;
    });
    const chat = new Chat({ id: 'c', transport: createChatwireTransport({ baseUrl: BASE, getToken: () => 't', fetch: server.fetch }) });
    const done = chat.sendMessage({ text: 'hi' }, { headers: { 'x-trace': '1' } });
    while (chat.messages.length < 2 || chat.messages[1]!.parts.length < 1) await new Promise((r) => setTimeout(r, 5));
    await chat.stop();
    await done;
    expect(signal?.aborted).toBe(true);
    expect(server.seen[0]!.headers['x-trace']).toBe('1');
    expect(chat.status).toBe('ready');
    expect(chat.messages[1]!.parts).toContainEqual(expect.objectContaining({ type: 'text', text: 'Hel' }));
  });

  it('rejects regenerate (chatwire stores each user message once) and returns null from reconnectToStream', async () => {
    const transport = createChatwireTransport({ baseUrl: BASE, getToken: () => 't', fetch: fakeFetch(() => jsonResponse(500, {})).fetch });
    await expect(
      transport.sendMessages({ trigger: 'regenerate-message', chatId: 'c', messageId: 'm', messages: [], abortSignal: undefined }),
    ).rejects.toMatchObject({ code: 'UNSUPPORTED' });
    expect(await transport.reconnectToStream({ chatId: 'c' })).toBeNull();
  });
});
