import { createHash } from 'node:crypto';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { fromEnv } from './from-env.js';
import { chatFixture, readSse, SECRET, type ChatFixture } from './test-support/chat-fixture.js';
import { scriptedModel, textStep, toolStep } from './test-support/scripted-model.js';
import { storeBackends } from './test-support/store-backends.js';

const backends = storeBackends('cw_shares');
afterAll(async () => {
  for (const backend of backends) await backend.close();
});
afterEach(() => vi.useRealTimers());

interface Created {
  share: { shareId: string; chatId: string; title: string; messageCount: number; createdAt: string; expiresAt: string | null };
  url: string;
}

async function turn(f: ChatFixture, body: Record<string, unknown>): Promise<void> {
  const res = await f.request('POST', '/chat', { body });
  expect(res.status).toBe(200);
  expect((await readSse(res)).done).toBe(true);
}

async function share(f: ChatFixture, chatId: string, body: unknown = {}): Promise<Created & { token: string }> {
  const res = await f.request('POST', `/chats/${chatId}/shares`, { body });
  expect(res.status).toBe(201);
  const created = (await res.json()) as Created;
  return { ...created, token: created.url.split('/').pop()! };
}

/** `GET /shared/:token` with no Authorization header. */
function read(f: ChatFixture, token: string, headers: Record<string, string> = {}): Promise<Response> {
  return f.handler(new Request(`http://localhost/api/ai/shared/${token}`, { headers }));
}

const NOT_FOUND = '{"error":{"code":"NOT_FOUND","message":"Share not found"}}';

for (const backend of backends) {
  describe.skipIf(backend.skipReason !== '')(`share links through the handler on ${backend.name} ${backend.skipReason}`.trim(), () => {
    const fixture = (texts: Parameters<typeof scriptedModel>[0], handler: Record<string, unknown> = {}) =>
      chatFixture(scriptedModel(texts).model, { driver: backend.driver(), handler: { sharing: true, ...handler } });

    it('shares a frozen copy: read without auth, never indexed or cached, later turns and a regenerate do not show', async () => {
      const f = fixture([textStep('First answer'), textStep('Second answer'), textStep('Regenerated')]);
      const chatId = await f.createChat('alice', 'Trip plans');
      await turn(f, { chatId, userMessageId: 'u1', content: 'Where to?' });
      const { share: created, url, token } = await share(f, chatId);
      expect(token).toMatch(/^[A-Za-z0-9_-]{22}$/);
      expect(url).toBe(`http://localhost/api/ai/shared/${token}`);
      expect(created).toEqual({ shareId: expect.any(String), chatId, title: 'Trip plans', messageCount: 2, createdAt: expect.any(String), expiresAt: null });

      await turn(f, { chatId, userMessageId: 'u2', content: 'And then?' });
      await turn(f, { chatId, trigger: 'regenerate' });
      const res = await read(f, token);
      expect(res.status).toBe(200);
      expect(res.headers.get('x-robots-tag')).toBe('noindex');
      expect(res.headers.get('cache-control')).toBe('no-store');
      const body = (await res.json()) as { share: Record<string, unknown>; messages: Array<Record<string, unknown>> };
      expect(body.share).toEqual({ title: 'Trip plans', createdAt: created.createdAt, expiresAt: null });
      expect(body.messages.map((m) => [m.id, m.role, m.content])).toEqual([
        ['u1', 'user', 'Where to?'],
        [expect.any(String), 'assistant', 'First answer'],
      ]);
      expect(JSON.stringify(body)).not.toContain('alice');
      expect(JSON.stringify(body)).not.toContain(chatId);
    });

    it('keeps only the SHA-256 of the token, and shows tool calls by name only', async () => {
      const f = fixture([toolStep('records_create', { collection: 'notes', data: { title: 'secret-title' } }), textStep('Done.')]);
      const chatId = await f.createChat('alice');
      await turn(f, { chatId, userMessageId: 'u1', content: 'Note it' });
      const { share: created, token } = await share(f, chatId);
      const rows = await f.rows('ai-shares');
      expect(rows.map((r) => r.recordId)).toEqual([createHash('sha256').update(token).digest('base64url')]);
      expect(created.shareId).toBe(rows[0]!.recordId);
      expect(JSON.stringify(rows)).not.toContain(token);

      const body = (await (await read(f, token)).json()) as { messages: Array<{ parts: unknown[] }> };
      expect(body.messages[1]!.parts).toEqual([{ type: 'tool', toolName: 'records_create' }, { type: 'text', text: 'Done.' }]);
      expect(JSON.stringify(body)).not.toContain('secret-title');
    });

    it('revoke, expiry and chat delete 404 at once, with one byte-identical body for every miss', async () => {
      const f = fixture([textStep('A')]);
      const chatId = await f.createChat('alice');
      await turn(f, { chatId, userMessageId: 'u1', content: 'Hi' });
      const revoked = await share(f, chatId);
      const expiring = await share(f, chatId, { expiresInDays: 1 });
      const deleted = await share(f, chatId);
      expect(Date.parse(expiring.share.expiresAt!) - Date.parse(expiring.share.createdAt)).toBeGreaterThan(86_000_000);
      for (const s of [revoked, expiring, deleted]) expect((await read(f, s.token)).status).toBe(200);

      // Another user can neither revoke nor share alice's chat.
      expect((await f.request('DELETE', `/shares/${revoked.share.shareId}`, { user: 'bob' })).status).toBe(404);
      expect((await f.request('POST', `/chats/${chatId}/shares`, { user: 'bob', body: {} })).status).toBe(404);
      const revoke = await f.request('DELETE', `/shares/${revoked.share.shareId}`);
      expect(revoke.status).toBe(200);
      expect(await revoke.json()).toEqual({ revoked: true });
      expect((await f.request('DELETE', `/shares/${revoked.share.shareId}`)).status).toBe(404);
      expect((await f.request('DELETE', '/shares/no%20such%20id!')).status).toBe(404);

      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(Date.parse(expiring.share.expiresAt!) + 1);
      expect((await read(f, deleted.token)).status).toBe(200);
      const misses = [await read(f, revoked.token), await read(f, expiring.token)];
      vi.useRealTimers();
      expect((await f.request('DELETE', `/chats/${chatId}`)).status).toBe(200);
      // The chat's shares, expired ones included, went with it.
      expect(await f.rows('ai-shares')).toEqual([]);
      misses.push(await read(f, deleted.token), await read(f, 'A'.repeat(22)), await read(f, 'not-a-token'), await read(f, 'a/b'));
      for (const res of misses) {
        expect(res.status).toBe(404);
        expect(res.headers.get('x-robots-tag')).toBe('noindex');
        expect(res.headers.get('cache-control')).toBe('no-store');
        expect(await res.text()).toBe(NOT_FOUND);
      }
    });

    it('rate-limits reads per client address, hits and misses alike (429 with Retry-After)', async () => {
      const f = fixture([textStep('A')], {
        sharing: { readsPerMinute: 3 },
        clientAddress: (request: { headers: { get(name: string): string | null } }) => request.headers.get('x-test-client') ?? undefined,
      });
      const chatId = await f.createChat('alice');
      await turn(f, { chatId, userMessageId: 'u1', content: 'Hi' });
      const { token } = await share(f, chatId);
      const one = { 'x-test-client': '203.0.113.1' };
      expect((await read(f, token, one)).status).toBe(200);
      expect((await read(f, 'B'.repeat(22), one)).status).toBe(404);
      expect((await read(f, token, one)).status).toBe(200);
      const limited = await read(f, token, one);
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(limited.headers.get('x-robots-tag')).toBe('noindex');
      expect(((await limited.json()) as { error: { code: string } }).error.code).toBe('RATE_LIMITED');
      expect((await read(f, token, { 'x-test-client': '203.0.113.2' })).status).toBe(200);
    });

    it('bad input: expiresInDays out of range or not a number is 400', async () => {
      const f = fixture([]);
      const chatId = await f.createChat('alice');
      for (const body of [{ expiresInDays: 0 }, { expiresInDays: 366 }, { expiresInDays: 1.5 }, { expiresInDays: '7' }, [1]]) {
        const res = await f.request('POST', `/chats/${chatId}/shares`, { body });
        expect(res.status).toBe(400);
        expect(((await res.json()) as { error: { code: string } }).error.code).toBe('VALIDATION');
      }
      expect((await f.request('POST', `/chats/${chatId}/shares`)).status).toBe(201);
      expect((await f.request('POST', `/chats/${chatId}/shares`, { user: null })).status).toBe(401);
    });
  });
}

describe('share links are off by default', () => {
  it('the share routes are unknown paths (404) until `sharing` or CHATWIRE_SHARING=1 turns them on', async () => {
    const f = chatFixture(scriptedModel([]).model);
    const chatId = await f.createChat('alice');
    expect(f.handler.service.sharing).toBe(false);
    for (const res of [
      await f.request('POST', `/chats/${chatId}/shares`, { body: {} }),
      await f.request('DELETE', '/shares/x'),
      await read(f, 'A'.repeat(22)),
    ]) {
      expect(res.status).toBe(404);
      expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/^No route for /);
    }
    expect(await f.rows('ai-shares')).toEqual([]);
    expect(fromEnv({ CHATWIRE_JWT_SECRET: SECRET }).sharing).toBeUndefined();
    expect(fromEnv({ CHATWIRE_JWT_SECRET: SECRET, CHATWIRE_SHARING: '1' }).sharing).toBe(true);
  });
});
