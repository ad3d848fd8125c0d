import { describe, expect, it } from 'vitest';
import { ChatwireClientError } from './chatwire-client-error.js';
import { createChatClient } from './create-chat-client.js';
import { collect, sseBytes } from './test-support/byte-streams.js';
import { fakeFetch, jsonResponse, streamResponse } from './test-support/fake-server.js';
import { recordUiStreamResponse } from './test-support/record-ui-stream.js';

const chat = { recordId: 'c1', userId: 'u1', title: 'Hi', createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z' };
const BASE = 'http://host/api/ai/';

describe('createChatClient routes', () => {
  it('calls every route with the right method, path, body and bearer token', async () => {
    const server = fakeFetch(({ method, url }) => {
      const path = `${method} ${url.replace('http://host/api/ai', '')}`;
      if (path === 'POST /chats') return jsonResponse(201, { chat });
      if (path === 'GET /chats?limit=5&cursor=abc') return jsonResponse(200, { chats: [chat], nextCursor: null });
      if (path === 'GET /chats') return jsonResponse(200, { chats: [], nextCursor: null });
      if (path === 'GET /chats/c%2F1') return jsonResponse(200, { chat, messages: [] });
      if (path === 'PATCH /chats/c1') return jsonResponse(200, { chat: { ...chat, title: 'New' } });
      if (path === 'DELETE /chats/c1') return jsonResponse(200, { deleted: { chatId: 'c1', messages: 4 } });
      return jsonResponse(599, { error: { code: 'UNEXPECTED', message: path } });
    });
    let calls = 0;
    const client = createChatClient({ baseUrl: BASE, getToken: async () => `jwt-${++calls}`, fetch: server.fetch });

    expect(await client.createChat({ title: 'Hi' })).toEqual(chat);
    expect(await client.listChats({ limit: 5, cursor: 'abc' })).toEqual({ chats: [chat], nextCursor: null });
    expect(await client.listChats()).toEqual({ chats: [], nextCursor: null });
    expect(await client.getChat('c/1')).toEqual({ chat, messages: [] });
    expect((await client.renameChat('c1', 'New')).title).toBe('New');
    expect(await client.deleteChat('c1')).toEqual({ chatId: 'c1', messages: 4 });

    expect(server.seen.map((r) => [r.method, r.body, r.headers.authorization])).toEqual([
      ['POST', { title: 'Hi' }, 'Bearer jwt-1'],
      ['GET', undefined, 'Bearer jwt-2'],
      ['GET', undefined, 'Bearer jwt-3'],
      ['GET', undefined, 'Bearer jwt-4'],
      ['PATCH', { title: 'New' }, 'Bearer jwt-5'],
      ['DELETE', undefined, 'Bearer jwt-6'],
    ]);
    expect(server.seen[0]!.headers['content-type']).toBe('application/json');
  });

  it('accepts a sync getToken and sends no header for an empty token', async () => {
    const server = fakeFetch(() => jsonResponse(201, { chat }));
    await createChatClient({ baseUrl: BASE, getToken: () => 'sync', fetch: server.fetch }).createChat();
    await createChatClient({ baseUrl: BASE, getToken: () => null, fetch: server.fetch }).createChat();
    expect(server.seen.map((r) => r.headers.authorization)).toEqual(['Bearer sync', undefined]);
    expect(server.seen[0]!.body).toEqual({});
  });

  it.each([
    [401, 'UNAUTHORIZED', 'missing or invalid token'],
    [404, 'NOT_FOUND', 'chat c1 not found'],
    [400, 'VALIDATION', 'title must be a string'],
    [500, 'INTERNAL', 'internal error'],
  ])('maps a %i JSON error to ChatwireClientError %s', async (status, code, message) => {
    const server = fakeFetch(() => jsonResponse(status, { error: { code, message } }));
    const client = createChatClient({ baseUrl: BASE, getToken: () => 't', fetch: server.fetch });
    const error = await client.renameChat('c1', 'x').catch((e: unknown) => e);
    expect(ChatwireClientError.is(error)).toBe(true);
    expect(error).toMatchObject({ code, status, message });
  });

  it('maps a rejected fetch to NETWORK_ERROR and an unreadable success body to INVALID_RESPONSE', async () => {
    const down = createChatClient({ baseUrl: BASE, getToken: () => 't', fetch: (async () => { throw new TypeError('fetch failed'); }) as typeof fetch });
    await expect(down.listChats()).rejects.toMatchObject({ code: 'NETWORK_ERROR', status: 0, message: expect.stringContaining('fetch failed') });
    const html = createChatClient({ baseUrl: BASE, getToken: () => 't', fetch: fakeFetch(() => new Response('<html>', { status: 200 })).fetch });
    await expect(html.listChats()).rejects.toMatchObject({ code: 'INVALID_RESPONSE', status: 200 });
  });

  it('rejects with the AbortError itself when the caller aborts a route call', async () => {
    const controller = new AbortController();
    controller.abort();
    const client = createChatClient({ baseUrl: BASE, getToken: () => 't', fetch: fakeFetch(() => jsonResponse(200, {})).fetch });
    await expect(client.getChat('c1', { signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('createChatClient.sendMessage', () => {
  it('posts the turn, returns X-Asst-Id and the decoded actions of a real-pipeline stream', async () => {
    const server = fakeFetch(() => recordUiStreamResponse('asst-9'));
    const client = createChatClient({ baseUrl: BASE, getToken: () => 't', fetch: server.fetch });
    const sent = await client.sendMessage({ chatId: 'c1', content: 'weather?', modelId: 'alpha-1', userMessageId: 'u-1' });
    expect(sent.assistantMessageId).toBe('asst-9');
    expect(sent.userMessageId).toBe('u-1');
    const actions = await collect(sent.actions);
    expect(actions.at(-1)).toEqual({ type: 'finish', finishReason: 'stop' });
    expect(actions.filter((a) => a.type === 'fail-tool-output')).toHaveLength(2);
    const [request] = server.seen;
    expect(request).toMatchObject({ method: 'POST', url: 'http://host/api/ai/chat' });
    expect(request!.body).toEqual({ chatId: 'c1', userMessageId: 'u-1', content: 'weather?', modelId: 'alpha-1' });
    expect(request!.headers).toMatchObject({ authorization: 'Bearer t', accept: 'text/event-stream' });
  });

  it('defaults userMessageId to a random UUID and omits an absent modelId', async () => {
    const server = fakeFetch(() => streamResponse([sseBytes({ type: 'finish' })]).response);
    const sent = await createChatClient({ baseUrl: BASE, getToken: () => 't', fetch: server.fetch }).sendMessage({ chatId: 'c1', content: 'x' });
    expect(sent.userMessageId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(server.seen[0]!.body).toEqual({ chatId: 'c1', userMessageId: sent.userMessageId, content: 'x' });
    expect(await collect(sent.chunks)).toEqual([{ type: 'finish' }]);
    expect(() => sent.actions).toThrow(/already read through chunks/);
    expect(() => sent.actionBatches).toThrow(/already read through chunks/);
  });

  it.each([
    [409, 'DUPLICATE_MESSAGE'],
    [409, 'CHAT_BUSY'],
    [400, 'MODEL_NOT_ALLOWED'],
    [413, 'PAYLOAD_TOO_LARGE'],
  ])('rejects a %i %s before any stream', async (status, code) => {
    const server = fakeFetch(() => jsonResponse(status, { error: { code, message: `m-${code}` } }));
    const client = createChatClient({ baseUrl: BASE, getToken: () => 't', fetch: server.fetch });
    await expect(client.sendMessage({ chatId: 'c1', content: 'x' })).rejects.toMatchObject({ code, status, message: `m-${code}` });
  });

  it('rejects INVALID_RESPONSE when X-Asst-Id is not readable (CORS) and releases the body', async () => {
    const served = streamResponse([sseBytes({ type: 'finish' })], { asstId: null });
    const client = createChatClient({ baseUrl: BASE, getToken: () => 't', fetch: fakeFetch(() => served.response).fetch });
    await expect(client.sendMessage({ chatId: 'c1', content: 'x' })).rejects.toMatchObject({ code: 'INVALID_RESPONSE', message: expect.stringContaining('X-Asst-Id') });
    expect(served.isCancelled()).toBe(true);
  });

  it('abort() cancels the request: the fetch signal fires and actions end with abort (client)', async () => {
    let signal: AbortSignal | undefined;
    const server = fakeFetch((request) => {
      signal = request.signal;
      return streamResponse([sseBytes({ type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: 'Hel' })], { signal, hold: true }).response;
    });
    const sent = await createChatClient({ baseUrl: BASE, getToken: () => 't', fetch: server.fetch }).sendMessage({ chatId: 'c1', content: 'x' });
    const actions: string[] = [];
    for await (const action of sent.actions) {
      actions.push(action.type === 'abort' ? `abort:${action.origin}` : action.type);
      if (action.type === 'append-text') sent.abort();
    }
    expect(signal?.aborted).toBe(true);
    expect(actions).toEqual(['append-text', 'abort:client']);
  });

  it('forwards an external signal, also before the response arrives', async () => {
    const controller = new AbortController();
    controller.abort();
    const server = fakeFetch(() => streamResponse([]).response);
    const client = createChatClient({ baseUrl: BASE, getToken: () => 't', fetch: server.fetch });
    await expect(client.sendMessage({ chatId: 'c1', content: 'x', signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
    expect(server.seen[0]!.signal?.aborted).toBe(true);
  });
});
