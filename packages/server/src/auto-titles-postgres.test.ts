import type { LanguageModelV2 } from '@ai-sdk/provider';
import { createPostgresDriver } from '@chatwire/postgres';
import pg from 'pg';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { chatFixture, readSse, type ChatFixture } from './test-support/chat-fixture.js';
import { scriptedModel, textStep } from './test-support/scripted-model.js';

const url = process.env.CHATWIRE_TEST_DATABASE_URL;
const schema = `cw_titles_${process.pid}_${Date.now().toString(36)}`;
const WAIT = { timeout: 10_000, interval: 20 };

/** Answers `text` once `gate` resolves. */
function gatedTitleModel(text: string, gate: Promise<void>): { model: LanguageModelV2; calls: number } {
  const state = { calls: 0 };
  const model: LanguageModelV2 = {
    specificationVersion: 'v2',
    provider: 'test',
    modelId: 'title-model',
    supportedUrls: {},
    async doGenerate() {
      state.calls++;
      await gate;
      return { content: [{ type: 'text', text }], finishReason: 'stop', usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 }, warnings: [] };
    },
    doStream: () => Promise.reject(new Error('not streamed')),
  };
  return Object.assign(state, { model });
}

async function titleOf(f: ChatFixture, chatId: string): Promise<string> {
  const res = await f.request('GET', `/chats/${chatId}`);
  return ((await res.json()) as { chat: { title: string } }).chat.title;
}

describe.skipIf(!url)(`generated titles on a real PostgreSQL${url ? '' : ' (skipped: CHATWIRE_TEST_DATABASE_URL not set)'}`, () => {
  const pool = url ? new pg.Pool({ connectionString: url, max: 4 }) : null;
  afterAll(async () => {
    await pool?.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await pool?.end();
  });

  it('titles an untitled chat, and a rename made while the title model runs wins', async () => {
    let release!: () => void;
    const title = gatedTitleModel('Generated', new Promise<void>((resolve) => (release = resolve)));
    const f = chatFixture(scriptedModel([textStep('a'), textStep('b')]).model, {
      driver: createPostgresDriver({ pool: pool!, schema }),
      handler: { autoTitles: true, titleModel: title.model },
    });
    const renamed = await f.createChat('alice');
    const untouched = await f.createChat('alice');
    for (const [chatId, id] of [[renamed, 'u1'], [untouched, 'u2']] as const) {
      const res = await f.request('POST', '/chat', { body: { chatId, userMessageId: id, content: 'Hi' } });
      expect((await readSse(res)).done).toBe(true);
    }
    await vi.waitFor(() => expect(title.calls).toBe(2), WAIT);
    expect((await f.request('PATCH', `/chats/${renamed}`, { body: { title: 'Mine' } })).status).toBe(200);
    release();
    await vi.waitFor(async () => expect(await titleOf(f, untouched)).toBe('Generated'), WAIT);
    await vi.waitFor(async () => expect((await f.rows('ai-chats')).every((c) => c.data.titleSource !== 'default')).toBe(true), WAIT);
    expect(await titleOf(f, renamed)).toBe('Mine');
    expect(f.errors).toEqual([]);
  });
});
