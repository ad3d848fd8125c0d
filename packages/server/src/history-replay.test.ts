import { describe, expect, it } from 'vitest';
import { chatFixture, readSse } from './test-support/chat-fixture.js';
import { scriptedModel, textStep, toolStep, type Script } from './test-support/scripted-model.js';

describe('history replay', () => {
  it('never replays a whitespace-only text block (Anthropic rejects it with 400)', async () => {
    const whitespaceThenTool: Script = [
      { type: 'text-start', id: 'ws' },
      { type: 'text-delta', id: 'ws', delta: '\n\n' },
      { type: 'text-end', id: 'ws' },
      ...toolStep('schema_list', {}),
    ];
    const scripted = scriptedModel([whitespaceThenTool, textStep('No collections.'), textStep('Second answer.')]);
    const f = chatFixture(scripted.model);
    const chatId = await f.createChat('alice');
    await readSse(await f.request('POST', '/chat', { body: { chatId, userMessageId: 'u1', content: 'What is there?' } }));
    await readSse(await f.request('POST', '/chat', { body: { chatId, userMessageId: 'u2', content: 'And now?' } }));

    // Call 1 is step 2 of the first turn (the SDK's own messages); call 2 is the next turn (stored history).
    for (const call of [scripted.calls[1]!, scripted.calls[2]!]) {
      const texts = call.prompt.flatMap((m) => (typeof m.content === 'string' ? [] : m.content.filter((p) => p.type === 'text')));
      expect(texts.length).toBeGreaterThan(0);
      for (const part of texts) expect((part as { text: string }).text.trim()).not.toBe('');
    }
    const prompt = scripted.calls[2]!.prompt;
    // The tool exchange itself is still replayed.
    expect(prompt.some((m) => m.role === 'tool')).toBe(true);
  });
});
