import { MockLanguageModelV3 } from 'ai-v6/test';
import { describe, expect, it, vi } from 'vitest';
import { chatFixture, readSse } from './test-support/chat-fixture.js';
import { scriptedModel, textStep } from './test-support/scripted-model.js';

const WAIT = { timeout: 10_000, interval: 20 };

describe('an app title model of another AI SDK major (titleModel)', () => {
  it('an AI SDK 6 (v3) model titles the chat: chatwire runs it as it runs the allow-listed ones', async () => {
    const prompts: string[] = [];
    const title = new MockLanguageModelV3({
      doGenerate: async (options) => {
        prompts.push(JSON.stringify(options.prompt));
        return {
          content: [{ type: 'text', text: 'Rome in spring' }],
          finishReason: { unified: 'stop', raw: 'stop' },
          usage: {
            inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
            outputTokens: { total: 3, text: 3, reasoning: 0 },
          },
          warnings: [],
        };
      },
    });
    const f = chatFixture(scriptedModel([textStep('Start at the Forum.')]).model, { handler: { autoTitles: true, titleModel: title } });
    const chatId = await f.createChat('alice');
    const res = await f.request('POST', '/chat', { body: { chatId, userMessageId: 'u1', content: 'Plan a weekend in Rome' } });
    expect((await readSse(res)).done).toBe(true);
    await vi.waitFor(async () => {
      const { chat } = (await (await f.request('GET', `/chats/${chatId}`)).json()) as { chat: { title: string } };
      expect(chat.title).toBe('Rome in spring');
    }, WAIT);
    expect(prompts[0]).toContain('Plan a weekend in Rome');
    expect(f.errors).toEqual([]);
  });

  it('a title model of an unknown specification is a CONFIGURATION error at start-up naming titleModel', () => {
    const model = { specificationVersion: 'v9', provider: 'x', modelId: 'odd', doStream: async () => ({}) };
    expect(() => chatFixture(scriptedModel([textStep('x')]).model, { handler: { autoTitles: true, titleModel: model as never } })).toThrow(/titleModel.*'v9'/);
  });
});
