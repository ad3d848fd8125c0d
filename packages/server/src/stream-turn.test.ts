import { APICallError } from '@ai-sdk/provider';
import { parseJsonEventStream, readUIMessageStream, uiMessageChunkSchema, type UIMessageChunk } from 'ai';
import { describe, expect, it } from 'vitest';
import { chatFixture, readSse } from './test-support/chat-fixture.js';
import { scriptedModel, textStep, type Script } from './test-support/scripted-model.js';

const turnBody = (chatId: string, userMessageId = 'u1', content = 'Hi there') => ({ chatId, userMessageId, content });

async function sdkChunks(response: Response): Promise<UIMessageChunk[]> {
  const out: UIMessageChunk[] = [];
  const reader = parseJsonEventStream({ stream: response.body!, schema: uiMessageChunkSchema }).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return out;
    if (!value.success) throw value.error;
    out.push(value.value as UIMessageChunk);
  }
}

describe('POST /chat streams a turn', () => {
  it('sends the stream headers, starts with X-Asst-Id, validates with the AI SDK and stores user, assistant, turn', async () => {
    const scripted = scriptedModel([textStep('Hello there, friend.')]);
    const f = chatFixture(scripted.model);
    const chatId = await f.createChat('alice');
    const res = await f.request('POST', '/chat', { body: turnBody(chatId) });

    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    expect(res.headers.get('cache-control')).toBe('no-cache, no-transform');
    expect(res.headers.get('x-accel-buffering')).toBe('no');
    expect(res.headers.get('x-vercel-ai-ui-message-stream')).toBe('v1');
    const asstId = res.headers.get('x-asst-id');
    expect(asstId).toEqual(expect.any(String));

    const [forSchema, forMessage] = res.body!.tee();
    const chunks = await sdkChunks(new Response(forSchema));
    expect(chunks[0]).toEqual({ type: 'start', messageId: asstId });
    expect(chunks.at(-1)).toEqual({ type: 'finish', finishReason: 'stop' });
    let message;
    for await (const m of readUIMessageStream({ stream: await sdkChunks(new Response(forMessage)).then(toStream) })) message = m;
    expect(message).toMatchObject({ id: asstId, role: 'assistant', parts: [{ type: 'step-start' }, { type: 'text', text: 'Hello there, friend.' }] });

    const messages = await f.rows('ai-messages');
    expect(messages.map((m) => [m.recordId, m.data.role, m.data.content])).toEqual([
      ['u1', 'user', 'Hi there'],
      [asstId, 'assistant', 'Hello there, friend.'],
    ]);
    const [turn] = await f.rows('ai-turns');
    expect(turn!.data).toMatchObject({
      chatId,
      userId: 'alice',
      userMessageId: 'u1',
      assistantMessageId: asstId,
      modelId: 'alpha-sonnet-4-6',
      provider: 'provider_a',
      finishReason: 'stop',
      usage: { input: 10, output: 5, total: 15 },
      steps: 1,
      toolCalls: [],
    });
    expect(turn!.data.durationMs).toEqual(expect.any(Number));

    const history = (await (await f.request('GET', `/chats/${chatId}`)).json()) as { messages: Array<Record<string, unknown>> };
    expect(history.messages.map((m) => m.recordId)).toEqual(['u1', asstId]);
    expect(history.messages[0]).toMatchObject({ data: { chatId, userId: 'alice', role: 'user', content: 'Hi there' } });
    expect(Object.keys(history.messages[0]!).sort()).toEqual(['createdAt', 'data', 'recordId', 'updatedAt']);
  });

  it('never sends a reasoning chunk', async () => {
    const script: Script = [
      { type: 'reasoning-start', id: 'r1' },
      { type: 'reasoning-delta', id: 'r1', delta: 'secret thoughts' },
      { type: 'reasoning-end', id: 'r1' },
      ...textStep('Answer.'),
    ];
    const f = chatFixture(scriptedModel([script]).model);
    const chatId = await f.createChat('alice');
    const { chunks, done } = await readSse(await f.request('POST', '/chat', { body: turnBody(chatId) }));
    expect(done).toBe(true);
    expect(chunks.some((c) => String(c.type).startsWith('reasoning'))).toBe(false);
    expect(JSON.stringify(chunks)).not.toContain('secret thoughts');
  });

  it('sends the history of earlier turns to the model', async () => {
    const scripted = scriptedModel([textStep('First answer.'), textStep('Second answer.')]);
    const f = chatFixture(scripted.model);
    const chatId = await f.createChat('alice');
    await readSse(await f.request('POST', '/chat', { body: turnBody(chatId, 'u1', 'first question') }));
    await readSse(await f.request('POST', '/chat', { body: turnBody(chatId, 'u2', 'second question') }));
    const prompt = scripted.calls[1]!.prompt.map((m) => [m.role, JSON.stringify(m.content)]);
    expect(prompt).toEqual([
      ['user', expect.stringContaining('first question')],
      ['assistant', expect.stringContaining('First answer.')],
      ['user', expect.stringContaining('second question')],
    ]);
  });

  it('a provider error gives start, a safe error and [DONE]; nothing is stored and the chat is free again', async () => {
    const secretToken = 'sk-live-secret-value';
    const failing = scriptedModel([textStep('never')]);
    failing.model.doStream = async () => {
      throw new APICallError({
        message: `401 for key ${secretToken}`,
        url: 'https://provider.example/v1/messages',
        requestBodyValues: {},
        statusCode: 401,
        responseBody: `{"error":"bad key ${secretToken}"}`,
        isRetryable: false,
      });
    };
    const f = chatFixture(failing.model);
    const chatId = await f.createChat('alice');
    const res = await f.request('POST', '/chat', { body: turnBody(chatId) });
    expect(res.status).toBe(200);
    const { chunks, done } = await readSse(res);
    expect(chunks.map((c) => c.type)).toEqual(['start', 'error']);
    expect(chunks[1]!.errorText).toBe('The model provider returned an error (status 401).');
    expect(JSON.stringify(chunks)).not.toContain(secretToken);
    expect(done).toBe(true);
    expect(await f.rows('ai-messages')).toEqual([]);
    expect(f.errors.length).toBeGreaterThan(0);

    failing.model.doStream = scriptedModel([textStep('ok now')]).model.doStream;
    const again = await readSse(await f.request('POST', '/chat', { body: turnBody(chatId, 'u2') }));
    expect(again.chunks.at(-1)).toEqual({ type: 'finish', finishReason: 'stop' });
  });

  it('an onError that throws does not break the turn: the stream still ends and the chat is free', async () => {
    const failing = scriptedModel([textStep('x')], { failAfter: 1 });
    const f = chatFixture(failing.model, {
      handler: {
        maxRetries: 0,
        onError: () => {
          throw new Error('logging is down');
        },
      },
    });
    const chatId = await f.createChat('alice');
    const { chunks, done } = await readSse(await f.request('POST', '/chat', { body: turnBody(chatId) }));
    expect(done).toBe(true);
    expect(chunks.some((c) => c.type === 'error')).toBe(true);
    failing.model.doStream = scriptedModel([textStep('fine')]).model.doStream;
    expect((await f.request('POST', '/chat', { body: turnBody(chatId, 'u2') })).status).toBe(200);
  });

  it('a replayed userMessageId is 409 before any model call and leaves one stored pair', async () => {
    const scripted = scriptedModel([textStep('Once.')]);
    const f = chatFixture(scripted.model);
    const chatId = await f.createChat('alice');
    await readSse(await f.request('POST', '/chat', { body: turnBody(chatId) }));
    const replay = await f.request('POST', '/chat', { body: turnBody(chatId) });
    expect(replay.status).toBe(409);
    expect(((await replay.json()) as { error: { code: string } }).error.code).toBe('DUPLICATE_MESSAGE');
    expect(scripted.calls).toHaveLength(1);
    expect((await f.rows('ai-messages')).length).toBe(2);
    expect((await f.rows('ai-turns')).length).toBe(1);
  });

  it('two concurrent turns on one chat give one 200 and one 409 CHAT_BUSY; the chat is free afterwards', async () => {
    const scripted = scriptedModel([textStep('slow answer here')]);
    scripted.pauseAt(1);
    const f = chatFixture(scripted.model);
    const chatId = await f.createChat('alice');
    const [a, b] = await Promise.all([
      f.request('POST', '/chat', { body: turnBody(chatId, 'u1') }),
      f.request('POST', '/chat', { body: turnBody(chatId, 'u2') }),
    ]);
    const statuses = [a.status, b.status].sort();
    expect(statuses).toEqual([200, 409]);
    const busy = a.status === 409 ? a : b;
    expect(((await busy.json()) as { error: { code: string } }).error.code).toBe('CHAT_BUSY');
    scripted.release();
    await readSse(a.status === 200 ? a : b);
    const other = await f.createChat('alice');
    expect((await f.request('POST', '/chat', { body: turnBody(other, 'u3') })).status).toBe(200);
    expect((await f.request('POST', '/chat', { body: turnBody(chatId, 'u4') })).status).toBe(200);
  });

  it('a client disconnect aborts the model call and stores nothing', async () => {
    const scripted = scriptedModel([textStep('one two three four five six')]);
    scripted.pauseAt(3);
    const f = chatFixture(scripted.model);
    const chatId = await f.createChat('alice');
    const controller = new AbortController();
    const res = await f.request('POST', '/chat', { body: turnBody(chatId), signal: controller.signal });
    const reader = res.body!.getReader();
    await reader.read();
    await scripted.emitted(3);
    controller.abort();
    await reader.cancel();
    scripted.release();
    await expect.poll(() => scripted.aborted).toBe(true);
    await expect.poll(async () => (await f.request('POST', '/chat', { body: turnBody(chatId, 'u2') })).status).toBe(200);
    expect((await f.rows('ai-messages')).map((m) => m.recordId)).not.toContain('u1');
  });
});

function toStream<T>(items: T[]): ReadableStream<T> {
  return new ReadableStream({
    start(c) {
      for (const item of items) c.enqueue(item);
      c.close();
    },
  });
}
