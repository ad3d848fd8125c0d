import { withFaults } from '@chatwire/storage/testing';
import { createMemoryDriver } from '@chatwire/storage/memory';
import { SignJWT, UnsecuredJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { BASE, chatFixture, SECRET } from './test-support/chat-fixture.js';
import { scriptedModel, textStep } from './test-support/scripted-model.js';

const key = new TextEncoder().encode(SECRET);
const now = Math.floor(Date.now() / 1000);

const hostile: Array<[string, () => Promise<string>]> = [
  ['alg none', async () => new UnsecuredJWT({ sub: 'alice' }).setExpirationTime('1h').encode()],
  ['bad signature', async () => new SignJWT({ sub: 'alice' }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('1h').sign(new TextEncoder().encode('another-secret-that-is-32-bytes-long!!'))],
  ['expired', async () => new SignJWT({ sub: 'alice' }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime(now - 3600).sign(key)],
  ['not yet valid', async () => new SignJWT({ sub: 'alice' }).setProtectedHeader({ alg: 'HS256' }).setNotBefore(now + 3600).setExpirationTime('2h').sign(key)],
  ['no exp', async () => new SignJWT({ sub: 'alice' }).setProtectedHeader({ alg: 'HS256' }).sign(key)],
  ['no sub', async () => new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('1h').sign(key)],
  ['malformed', async () => 'not.a.jwt'],
  ['oversized', async () => new SignJWT({ sub: 'alice', pad: 'x'.repeat(20_000) }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('1h').sign(key)],
];

describe('authentication on the chat routes', () => {
  it.each(hostile)('%s: 401 with one generic body, before any storage or model call', async (_name, make) => {
    const driver = withFaults(createMemoryDriver());
    const scripted = scriptedModel([textStep('x')]);
    const f = chatFixture(scripted.model, { driver });
    driver.reset();
    const token = await make();
    for (const [method, path, body] of [
      ['POST', '/chats', {}],
      ['GET', '/chats/some-chat', undefined],
      ['POST', '/chat', { chatId: 'c', userMessageId: 'u', content: 'hi' }],
    ] as const) {
      const res = await f.handler(
        new Request(`${BASE}${path}`, {
          method,
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          ...(body ? { body: JSON.stringify(body) } : {}),
        }),
      );
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
      expect(await res.json()).toEqual({ error: { code: 'UNAUTHORIZED', message: 'Missing or invalid bearer token' } });
    }
    expect(driver.log).toEqual([]);
    expect(scripted.calls).toHaveLength(0);
    // The same requests with a valid token do reach storage, so the empty log above means something.
    expect((await f.request('POST', '/chats', { body: {} })).status).toBe(201);
    expect(driver.log.length).toBeGreaterThan(0);
  });

  it('accepts the scheme word in any case and takes the role claim', async () => {
    const f = chatFixture(scriptedModel([textStep('x')]).model);
    const token = await new SignJWT({ sub: 'alice', role: 'admin' }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('1h').sign(key);
    for (const scheme of ['bearer', 'BEARER', 'Bearer']) {
      const res = await f.handler(new Request(`${BASE}/chats`, { headers: { authorization: `${scheme} ${token}` } }));
      expect(res.status).toBe(200);
    }
    const wrongScheme = await f.handler(new Request(`${BASE}/chats`, { headers: { authorization: `Basic ${token}` } }));
    expect(wrongScheme.status).toBe(401);
  });

  it('uses a pluggable verifyToken', async () => {
    const f = chatFixture(scriptedModel([textStep('x')]).model, {
      handler: { auth: { verifyToken: async (t: string) => ({ userId: `user-of-${t}` }) } },
    });
    const res = await f.handler(new Request(`${BASE}/chats`, { method: 'POST', headers: { authorization: 'Bearer abc' } }));
    expect(res.status).toBe(201);
    expect(((await res.json()) as { chat: { userId: string } }).chat.userId).toBe('user-of-abc');
  });
});
