import type { LanguageModelV2 } from '@ai-sdk/provider';
import { describe, expect, it, vi } from 'vitest';
import { chatFixture, readSse, type ChatFixture } from './test-support/chat-fixture.js';
import { scriptedModel, textStep } from './test-support/scripted-model.js';

/** A title model answering `text` (or failing) once `gate` resolves; counts its calls. */
function titleModel(text: string | Error, gate: Promise<void> = Promise.resolve()) {
  const calls: string[] = [];
  const model: LanguageModelV2 = {
    specificationVersion: 'v2',
    provider: 'test',
    modelId: 'title-model',
    supportedUrls: {},
    async doGenerate(options) {
      calls.push(JSON.stringify(options.prompt));
      await gate;
      if (text instanceof Error) throw text;
      return {
        content: [{ type: 'text', text }],
        finishReason: 'stop',
        usage: { inputTokens: 10, outputTokens: 3, totalTokens: 13 },
        warnings: [],
      };
    },
    doStream: () => Promise.reject(new Error('the title model is not streamed')),
  };
  return { model, calls };
}

function gate() {
  let release!: () => void;
  const promise = new Promise<void>((resolve) => (release = resolve));
  return { promise, release };
}

const WAIT = { timeout: 10_000, interval: 20 };

async function titles(f: ChatFixture): Promise<Record<string, string>> {
  const { chats } = (await (await f.request('GET', '/chats')).json()) as { chats: Array<{ recordId: string; title: string }> };
  return Object.fromEntries(chats.map((c) => [c.recordId, c.title]));
}

async function turn(f: ChatFixture, chatId: string, userMessageId: string, content = 'Plan a weekend in Rome please') {
  const res = await f.request('POST', '/chat', { body: { chatId, userMessageId, content } });
  expect(res.status).toBe(200);
  return readSse(res);
}

/** A chat of its own, titled through a whole turn: once its title shows, earlier turns' title work is done. */
async function barrier(f: ChatFixture, expected: string) {
  const chatId = await f.createChat('alice');
  await turn(f, chatId, `barrier-${chatId}`);
  await vi.waitFor(async () => expect((await titles(f))[chatId]).toBe(expected), WAIT);
}

describe('generated chat titles (autoTitles)', () => {
  it('titles a chat after its first completed turn, without delaying the turn: [DONE] comes before the title model answers', async () => {
    const open = gate();
    const title = titleModel('"Weekend in Rome."', open.promise);
    const f = chatFixture(scriptedModel([textStep('Day one: the Colosseum.'), textStep('More.')]).model, {
      handler: { autoTitles: true, titleModel: title.model },
    });
    const chatId = await f.createChat('alice');
    const { done } = await turn(f, chatId, 'u1');
    expect(done).toBe(true);
    // The stream has ended while the title model has not answered (it waits on the gate).
    await vi.waitFor(() => expect(title.calls).toHaveLength(1), WAIT);
    expect((await titles(f))[chatId]).toBe('New chat');
    expect(title.calls[0]).toContain('Plan a weekend in Rome please');
    expect(title.calls[0]).toContain('Day one: the Colosseum.');
    open.release();
    await vi.waitFor(async () => expect((await titles(f))[chatId]).toBe('Weekend in Rome'), WAIT);

    // A later turn keeps the generated title and does not ask again.
    await turn(f, chatId, 'u2', 'And on Sunday?');
    await barrier(f, 'Weekend in Rome');
    expect((await titles(f))[chatId]).toBe('Weekend in Rome');
    expect(title.calls).toHaveLength(2); // the first chat once, the barrier chat once
    expect(f.errors).toEqual([]);
  });

  it('never replaces a title the user gave, at creation or by a rename that lands while the title model runs', async () => {
    const open = gate();
    const title = titleModel('Generated title', open.promise);
    const f = chatFixture(scriptedModel([textStep('a'), textStep('b'), textStep('c')]).model, {
      handler: { autoTitles: true, titleModel: title.model },
    });
    const named = await f.createChat('alice', 'My own title');
    await turn(f, named, 'u1');
    const racing = await f.createChat('alice');
    await turn(f, racing, 'u2');
    await vi.waitFor(() => expect(title.calls).toHaveLength(1), WAIT); // only the untitled chat asks
    const renamed = await f.request('PATCH', `/chats/${racing}`, { body: { title: 'Renamed meanwhile' } });
    expect(renamed.status).toBe(200);
    open.release();
    await barrier(f, 'Generated title');
    const now = await titles(f);
    expect(now[named]).toBe('My own title');
    expect(now[racing]).toBe('Renamed meanwhile');
    expect(f.errors).toEqual([]);
  });

  it('a failing title model leaves the title as it was and reports through onError', async () => {
    const title = titleModel(new Error('title model down'));
    const f = chatFixture(scriptedModel([textStep('answer')]).model, { handler: { autoTitles: true, titleModel: title.model } });
    const chatId = await f.createChat('alice');
    const { chunks, done } = await turn(f, chatId, 'u1');
    expect(done).toBe(true);
    expect(chunks.some((c) => c.type === 'error')).toBe(false);
    await vi.waitFor(() => expect(f.errors).toHaveLength(1), WAIT);
    expect(String(f.errors[0])).toContain('title model down');
    expect((await titles(f))[chatId]).toBe('New chat');
    expect((await f.rows('ai-messages')).map((m) => m.data.role)).toEqual(['user', 'assistant']);
  });

  it('with no title model configured (the demo model) the title is the first message, and it replaces the first-message title of a chat created by its first turn', async () => {
    const f = chatFixture(scriptedModel([textStep('a'), textStep('b')]).model, {
      handler: { autoTitles: true, createChatOnFirstTurn: true },
    });
    const chatId = await f.createChat('alice');
    await turn(f, chatId, 'u1', 'What is the capital of Peru?\nThanks');
    await vi.waitFor(async () => expect((await titles(f))[chatId]).toBe('What is the capital of Peru?'), WAIT);
    await turn(f, 'fresh-chat', 'u2', 'Auto-created chat');
    expect((await titles(f))['fresh-chat']).toBe('Auto-created chat');
    const row = (await f.rows('ai-chats')).find((c) => c.recordId === 'fresh-chat')!;
    await vi.waitFor(async () => {
      const again = (await f.rows('ai-chats')).find((c) => c.recordId === 'fresh-chat')!;
      expect(again.data.titleSource).toBe('generated');
    }, WAIT);
    expect(row.data.titleSource).toMatch(/default|generated/);
  });

  it('is off by default', async () => {
    const title = titleModel('Never');
    const f = chatFixture(scriptedModel([textStep('a'), textStep('b')]).model, { handler: { titleModel: title.model } });
    const chatId = await f.createChat('alice');
    await turn(f, chatId, 'u1');
    await turn(f, chatId, 'u2', 'again');
    expect(title.calls).toEqual([]);
    expect((await titles(f))[chatId]).toBe('New chat');
  });
});
