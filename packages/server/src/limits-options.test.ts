import { describe, expect, it } from 'vitest';
import { chatFixture, readSse } from './test-support/chat-fixture.js';
import { scriptedModel, textStep } from './test-support/scripted-model.js';

describe('limits from the handler options (what fromEnv hands over)', () => {
  it('turnsPerMinute: the second turn of a minute is 429 RATE_LIMITED with Retry-After, no model call, nothing stored', async () => {
    const scripted = scriptedModel([textStep('one'), textStep('two')]);
    const f = chatFixture(scripted.model, { handler: { turnsPerMinute: 1 } });
    const chatId = await f.createChat('alice');
    await readSse(await f.request('POST', '/chat', { body: { chatId, userMessageId: 'u1', content: 'Hi' } }));
    const refused = await f.request('POST', '/chat', { body: { chatId, userMessageId: 'u2', content: 'Again' } });
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(await refused.json()).toMatchObject({ error: { code: 'RATE_LIMITED', retryAfter } });
    expect(scripted.calls).toHaveLength(1);
    expect((await f.rows('ai-messages')).map((m) => m.recordId)).not.toContain('u2');
    // Another user is not limited by alice's turns.
    const other = await f.createChat('bob');
    expect((await f.request('POST', '/chat', { user: 'bob', body: { chatId: other, userMessageId: 'b1', content: 'Hi' } })).status).toBe(200);
  });
});
