import { describe, expect, it } from 'vitest';
import { BASE, chatFixture, signToken } from './test-support/chat-fixture.js';
import { scriptedModel, textStep } from './test-support/scripted-model.js';

/**
 * Route matching runs before authentication, so it must stay linear in the path length. The old
 * `/\/+$/` trim backtracked quadratically on a long run of slashes that does not end the path: 150k
 * slashes took tens of seconds of blocked event loop, far past vitest's default 5 s test timeout (which
 * also fails a test that blocked synchronously); the loop takes milliseconds.
 */
describe('createChatHandler: request paths (ReDoS)', () => {
  const slashes = '/'.repeat(150_000);

  it('answers an unauthenticated path with a long run of inner slashes with 404', async () => {
    const f = chatFixture(scriptedModel([textStep('x')]).model);
    const res = await f.handler(new Request(`${BASE}${slashes}x`));
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('NOT_FOUND');
  });

  it('still strips a long run of trailing slashes when routing', async () => {
    const f = chatFixture(scriptedModel([textStep('x')]).model);
    const res = await f.handler(
      new Request(`${BASE}/chats${slashes}`, { headers: { authorization: `Bearer ${await signToken('alice')}` } }),
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ chats: [], nextCursor: null });
  });
});
