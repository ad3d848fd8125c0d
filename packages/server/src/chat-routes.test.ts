import { afterAll, describe, expect, it } from 'vitest';
import { chatFixture } from './test-support/chat-fixture.js';
import { scriptedModel, textStep } from './test-support/scripted-model.js';
import { storeBackends } from './test-support/store-backends.js';

const fixture = () => chatFixture(scriptedModel([textStep('Hello there.')]).model);

async function errorOf(res: Response) {
  return ((await res.json()) as { error: { code: string; message: string } }).error;
}

describe('chat routes', () => {
  it('POST /chats creates a flat chat owned by the caller (201)', async () => {
    const f = fixture();
    const res = await f.request('POST', '/chats', { body: { title: 'Trip plans' } });
    expect(res.status).toBe(201);
    const { chat } = (await res.json()) as { chat: Record<string, unknown> };
    expect(Object.keys(chat).sort()).toEqual(['createdAt', 'recordId', 'title', 'updatedAt', 'userId']);
    expect(chat).toMatchObject({ userId: 'alice', title: 'Trip plans' });
  });

  it('POST /chats without a body or title gets a default title', async () => {
    const f = fixture();
    for (const res of [await f.request('POST', '/chats'), await f.request('POST', '/chats', { body: {} })]) {
      expect(res.status).toBe(201);
      expect(((await res.json()) as { chat: { title: string } }).chat.title).toBe('New chat');
    }
  });

  it('GET /chats lists only the caller’s chats, newest first, with a cursor', async () => {
    const f = fixture();
    const ids = [];
    for (const title of ['one', 'two', 'three']) ids.push(await f.createChat('alice', title));
    await f.createChat('bob', 'bob’s');
    const first = await f.request('GET', '/chats?limit=2');
    expect(first.status).toBe(200);
    const page1 = (await first.json()) as { chats: Array<{ title: string }>; nextCursor: string | null };
    expect(page1.chats.map((c) => c.title)).toEqual(['three', 'two']);
    expect(page1.nextCursor).toEqual(expect.any(String));
    const page2 = (await (await f.request('GET', `/chats?limit=2&cursor=${encodeURIComponent(page1.nextCursor!)}`)).json()) as {
      chats: Array<{ title: string }>;
      nextCursor: string | null;
    };
    expect(page2.chats.map((c) => c.title)).toEqual(['one']);
    expect(page2.nextCursor).toBeNull();
  });

  it('GET /chats/:id returns the chat and its messages', async () => {
    const f = fixture();
    const id = await f.createChat('alice', 'x');
    const res = await f.request('GET', `/chats/${id}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ chat: { recordId: id, title: 'x' }, messages: [] });
  });

  it('PATCH /chats/:id renames', async () => {
    const f = fixture();
    const id = await f.createChat('alice', 'old');
    const res = await f.request('PATCH', `/chats/${id}`, { body: { title: 'new' } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ chat: { recordId: id, title: 'new', userId: 'alice' } });
  });

  it('another user’s chat and a missing chat give byte-identical 404s on every chat route', async () => {
    const f = fixture();
    const id = await f.createChat('alice');
    for (const [method, body] of [['GET'], ['PATCH', { title: 't' }], ['DELETE']] as const) {
      const other = await f.request(method, `/chats/${id}`, { user: 'mallory', ...(body ? { body } : {}) });
      const missing = await f.request(method, `/chats/does-not-exist`, { user: 'mallory', ...(body ? { body } : {}) });
      expect(other.status).toBe(404);
      expect(missing.status).toBe(404);
      expect(await other.text()).toBe(await missing.text());
    }
    const turn = await f.request('POST', '/chat', { user: 'mallory', body: { chatId: id, userMessageId: 'u1', content: 'hi' } });
    expect(turn.status).toBe(404);
    expect((await f.rows('ai-chats')).length).toBe(1);
  });

  it.each([
    ['POST', '/chats', undefined],
    ['GET', '/chats', undefined],
    ['GET', '/chats/x', undefined],
    ['PATCH', '/chats/x', { title: 'x' }],
    ['DELETE', '/chats/x', undefined],
    ['POST', '/chat', { chatId: 'x', userMessageId: 'u', content: 'hi' }],
  ])('%s %s without a token is 401 with WWW-Authenticate', async (method, path, body) => {
    const f = fixture();
    const res = await f.request(method, path, { user: null, ...(body ? { body } : {}) });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
    expect(await errorOf(res)).toEqual({ code: 'UNAUTHORIZED', message: 'Missing or invalid bearer token' });
  });

  it.each([
    ['POST', '/chats', '{bad json', 'not valid JSON'],
    ['POST', '/chats', '{"title": 42}', "'title' must be a string"],
    ['POST', '/chats', '[]', 'must be a JSON object'],
    ['PATCH', '/chats/ID', '{}', "'title' must be a string"],
    ['PATCH', '/chats/ID', '{"title": "  "}', "'title' must not be empty"],
    ['POST', '/chat', '{"userMessageId":"u1","content":"hi"}', "'chatId' must be a string"],
    ['POST', '/chat', '{"chatId":"ID","content":"hi"}', "'userMessageId' must be a string"],
    ['POST', '/chat', '{"chatId":"ID","userMessageId":"u1"}', "'content' must be a string"],
    ['POST', '/chat', '{"chatId":"ID","userMessageId":"u1","content":""}', "'content' must not be empty"],
    ['POST', '/chat', '{"chatId":"ID","userMessageId":"u1","content":["a"]}', "'content' must be a string, got array"],
    ['POST', '/chat', '{"chatId":"ID","userMessageId":"a b","content":"x"}', "'userMessageId' must be 1-128"],
    ['POST', '/chat', 'null', 'must be a JSON object'],
  ])('%s %s with %s is 400 naming the problem, and writes nothing', async (method, path, raw, message) => {
    const scripted = scriptedModel([textStep('x')]);
    const f = chatFixture(scripted.model);
    const id = await f.createChat('alice');
    const res = await f.request(method, path.replace('ID', id), { raw });
    expect(res.status).toBe(400);
    const error = await errorOf(res);
    expect(error.code).toBe('VALIDATION');
    expect(error.message).toContain(message);
    expect(scripted.calls).toHaveLength(0);
    expect(await f.rows('ai-messages')).toEqual([]);
    expect((await f.rows('ai-chats')).map((c) => c.data.title)).toEqual(['New chat']);
  });

  it('an unknown modelId is 400 MODEL_NOT_ALLOWED with no fallback and no model call', async () => {
    const scripted = scriptedModel([textStep('x')]);
    const f = chatFixture(scripted.model);
    const chatId = await f.createChat('alice');
    for (const modelId of ['gpt-4o', '', 42]) {
      const res = await f.request('POST', '/chat', { body: { chatId, userMessageId: 'u1', content: 'hi', modelId } });
      expect(res.status).toBe(400);
      expect((await errorOf(res)).code).toBe('MODEL_NOT_ALLOWED');
    }
    expect(scripted.calls).toHaveLength(0);
    expect(await f.rows('ai-messages')).toEqual([]);
  });

  it('an oversized body is 413 and a body limit is configurable', async () => {
    const f = chatFixture(scriptedModel([textStep('x')]).model, { handler: { maxBodyBytes: 100 } });
    const res = await f.request('POST', '/chats', { body: { title: 'x'.repeat(200) } });
    expect(res.status).toBe(413);
    expect((await errorOf(res)).code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('unknown paths under the base path are 404 and wrong methods 405 with Allow', async () => {
    const f = fixture();
    const missing = await f.request('GET', '/nope');
    expect(missing.status).toBe(404);
    const wrong = await f.request('PUT', '/chats');
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('GET, POST');
    expect(f.handler.matches('/api/ai/chats')).toBe(true);
    expect(f.handler.matches('/api/aix')).toBe(false);
  });

  it('a malformed list cursor or limit is 400', async () => {
    const f = fixture();
    expect((await f.request('GET', '/chats?limit=0')).status).toBe(400);
    expect((await f.request('GET', '/chats?limit=abc')).status).toBe(400);
    expect((await f.request('GET', '/chats?cursor=garbage')).status).toBe(400);
  });

  it('CORS, when on, answers preflights and exposes X-Asst-Id', async () => {
    const f = chatFixture(scriptedModel([textStep('x')]).model, { handler: { cors: { origin: ['https://app.example'] } } });
    const preflight = await f.handler(
      new Request('http://localhost/api/ai/chat', {
        method: 'OPTIONS',
        headers: { origin: 'https://app.example', 'access-control-request-headers': 'authorization, content-type' },
      }),
    );
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('https://app.example');
    const res = await f.handler(new Request('http://localhost/api/ai/chats', { headers: { origin: 'https://app.example' } }));
    expect(res.status).toBe(401);
    expect(res.headers.get('access-control-expose-headers')).toBe('X-Asst-Id');
    const other = await f.handler(new Request('http://localhost/api/ai/chats', { headers: { origin: 'https://evil.example' } }));
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('DELETE /chats/:id twice at once', () => {
  const backends = storeBackends('cw_delete_race');
  afterAll(async () => {
    for (const backend of backends) await backend.close();
  });
  for (const backend of backends) {
    it.skipIf(backend.skipReason)(`on ${backend.name}: one 200, the others the 404 of any missing chat (never the store's wording) ${backend.skipReason}`, async () => {
      const f = chatFixture(scriptedModel([textStep('x')]).model, { driver: backend.driver() });
      const chatId = await f.createChat('alice');
      const missing = await f.request('DELETE', '/chats/no-such-chat');
      const missingBody = await missing.text();
      const answers = await Promise.all([0, 1, 2].map(() => f.request('DELETE', `/chats/${chatId}`)));
      expect(answers.map((r) => r.status).sort()).toEqual([200, 404, 404]);
      for (const res of answers.filter((r) => r.status === 404)) expect(await res.text()).toBe(missingBody);
    });
  }
});
