import { createModelRegistry, type ModelRegistry } from '@chatwire/core';
import { ChatwireError } from '@chatwire/storage';
import { describe, expect, it } from 'vitest';
import { chatFixture, readSse } from './test-support/chat-fixture.js';
import { scriptedModel, textStep } from './test-support/scripted-model.js';

const SUMMARIZER = 'beta-5.4-nano';

describe('an onError that throws', () => {
  it('while the summarizer cannot be built does not fail the turn nor leave the chat busy', async () => {
    const scripted = scriptedModel([textStep('Hello.')]);
    const base = createModelRegistry({ fallbackModel: scripted.model });
    const models: ModelRegistry = {
      ...base,
      languageModel: (modelId, options) => {
        if (modelId === SUMMARIZER) throw new ChatwireError('PROVIDER_NOT_CONFIGURED', 'PROVIDER_B_BASE_URL is not set');
        return base.languageModel(modelId, options);
      },
    };
    const f = chatFixture(scripted.model, {
      handler: {
        models,
        summarizerModelId: SUMMARIZER,
        onError: () => {
          throw new Error('onError failed');
        },
      },
    });
    const chatId = await f.createChat('alice');
    const first = await f.request('POST', '/chat', { body: { chatId, userMessageId: 'u1', content: 'Hi' } });
    expect(first.status).toBe(200);
    expect((await readSse(first)).chunks.at(-1)).toEqual({ type: 'finish', finishReason: 'stop' });
    expect((await f.request('POST', '/chat', { body: { chatId, userMessageId: 'u2', content: 'Hi' } })).status).toBe(200);
  });
});
