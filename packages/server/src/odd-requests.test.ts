import { describe, expect, it } from 'vitest';
import { BASE, chatFixture, signToken } from './test-support/chat-fixture.js';
import { scriptedModel, textStep } from './test-support/scripted-model.js';

/** Odd and hostile requests: each gets a JSON 4xx naming the problem, never a 500, a hang or a row. */
const odd: Array<[string, string, string | undefined, number]> = [
  ['GET', '/chats/%E0%A4%A', undefined, 404],
  ['GET', '/chats/%00', undefined, 404],
  ['GET', `/chats/${'x'.repeat(5000)}`, undefined, 404],
  ['GET', '/chats/..%2F..%2Fetc', undefined, 404],
  ['DELETE', '/chats/%F0%9F%98%80', undefined, 404],
  ['GET', '/chats?limit=1e3', undefined, 400],
  ['GET', '/chats?limit=-1', undefined, 400],
  ['GET', '/chats?cursor=%00%00', undefined, 400],
  ['GET', `/chats?cursor=${'A'.repeat(10000)}`, undefined, 400],
  ['POST', '/chats', '{"title": {"$gt": ""}}', 400],
  ['POST', '/chats', '{"__proto__": {"admin": true}, "title": "x"}', 201],
  ['POST', '/chats', '"just a string"', 400],
  ['POST', '/chats', '\u0000', 400],
  ['PATCH', '/chats/ID', '{"title": "ok", "userId": "mallory"}', 200],
  ['PATCH', '/chats/ID', '{"title": null}', 400],
  ['POST', '/chat', '{"chatId": "ID", "userMessageId": "u1", "content": "hi", "modelId": {"toString": "x"}}', 400],
  ['POST', '/chat', '{"chatId": ["ID"], "userMessageId": "u1", "content": "hi"}', 400],
  ['POST', '/chat', '{"chatId": "ID", "userMessageId": "../../u1", "content": "hi"}', 400],
  ['POST', '/chat', `{"chatId": "ID", "userMessageId": "${'u'.repeat(129)}", "content": "hi"}`, 400],
  ['POST', '/chat', '{"chatId": "ID", "userMessageId": "u1", "content": "   \\n\\t "}', 400],
  ['POST', '/chat', '{"chatId": "nope", "userMessageId": "u1", "content": "hi"}', 404],
  ['POST', '/chat', '{"chatId": "ID", "userMessageId": "u1", "content": "hi", "modelId": "ALPHA-SONNET-4-6"}', 400],
];

describe('odd requests', () => {
  it.each(odd)('%s %s %s → %i', async (method, path, raw, status) => {
    const scripted = scriptedModel([textStep('x')]);
    const f = chatFixture(scripted.model);
    const id = await f.createChat('alice', 'mine');
    const res = await f.handler(
      new Request(`${BASE}${path.replace('ID', id)}`, {
        method,
        headers: { authorization: `Bearer ${await signToken('alice')}`, 'content-type': 'application/json' },
        ...(raw === undefined ? {} : { body: raw.replace('ID', id) }),
      }),
    );
    expect(res.status).toBe(status);
    const body = (await res.json()) as { error?: { code: string; message: string }; chat?: Record<string, unknown> };
    if (status >= 400) expect(body.error?.message).toEqual(expect.any(String));
    if (body.chat) {
      expect(body.chat.userId).toBe('alice');
      expect(Object.keys(body.chat).sort()).toEqual(['createdAt', 'recordId', 'title', 'updatedAt', 'userId']);
    }
    expect(scripted.calls).toHaveLength(0);
    expect(await f.rows('ai-messages')).toEqual([]);
    expect(f.errors).toEqual([]);
  });
});
