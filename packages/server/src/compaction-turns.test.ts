import type { Summarizer } from '@chatwire/core';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { chatFixture, readSse } from './test-support/chat-fixture.js';
import { scriptedModel, textStep, toolStep } from './test-support/scripted-model.js';

describe('compaction inside turns', () => {
  it('summarizes once on the first over-budget turn, stores the summary in ai-turns, and reuses it next turn', async () => {
    const calls: Array<{ previousSummary?: string; count: number }> = [];
    const summarizer: Summarizer = async ({ messages, previousSummary }) => {
      calls.push({ count: messages.length, ...(previousSummary ? { previousSummary } : {}) });
      return `summary #${calls.length}`;
    };
    const scripted = scriptedModel([textStep('Noted.')]);
    const f = chatFixture(scripted.model, { handler: { summarizer, compaction: { contextBudget: 4_000, minKept: 2 } } });
    const chatId = await f.createChat('alice');
    const say = async (n: number) =>
      readSse(await f.request('POST', '/chat', { body: { chatId, userMessageId: `u${n}`, content: `${n}: ${'lorem ipsum '.repeat(60)}` } }));

    let firstOver = 0;
    for (let n = 1; n <= 8 && firstOver === 0; n++) {
      await say(n);
      if (calls.length > 0) firstOver = n;
    }
    expect(firstOver).toBeGreaterThan(1);
    expect(calls).toHaveLength(1);
    const turns = await f.rows('ai-turns');
    const withSummary = turns.filter((t) => t.data.summary);
    expect(withSummary).toHaveLength(1);
    expect(withSummary[0]!.data.summary).toEqual({ text: 'summary #1', throughId: expect.any(String) });
    expect((withSummary[0]!.data.compaction as { stages: string[] }).stages).toContain('summarize');

    await say(firstOver + 1);
    expect(calls).toHaveLength(1);
    const prompt = scripted.calls.at(-1)!.prompt;
    expect(JSON.stringify(prompt[0])).toContain('Summary of the earlier conversation:\\nsummary #1');
    for (const call of scripted.calls) expect(JSON.stringify(call.prompt.filter((m) => m.role !== 'system')).length).toBeLessThanOrEqual(4_000);
  });

  it('a summarizer failure falls back to the window, the turn goes on, and the turn row says so', async () => {
    const summarizer: Summarizer = async () => {
      throw new Error('summarizer down');
    };
    const f = chatFixture(scriptedModel([textStep('Noted.')]).model, { handler: { summarizer, compaction: { contextBudget: 3_000, minKept: 2 } } });
    const chatId = await f.createChat('alice');
    for (let n = 1; n <= 6; n++) {
      const { chunks } = await readSse(
        await f.request('POST', '/chat', { body: { chatId, userMessageId: `u${n}`, content: 'x'.repeat(700) } }),
      );
      expect(chunks.at(-1)).toEqual({ type: 'finish', finishReason: 'stop' });
    }
    const reports = (await f.rows('ai-turns')).map((t) => t.data.compaction as { stages: string[]; summarizerError?: string });
    const failed = reports.filter((r) => r.summarizerError);
    expect(failed.length).toBeGreaterThan(0);
    expect(failed[0]!.stages).toContain('window');
  });

  it('large tool results inside the tool loop never push a step over the budget', async () => {
    const big = { name: 'big.result', tool: { description: 'returns a lot', inputSchema: z.object({}), execute: async () => 'y'.repeat(9_000) } };
    const scripted = scriptedModel([
      toolStep('big_result', {}, 'c1'),
      toolStep('big_result', {}, 'c2'),
      toolStep('big_result', {}, 'c3'),
      textStep('Done.'),
    ]);
    const f = chatFixture(scripted.model, {
      handler: {
        tools: { allow: [], custom: { [big.name]: big.tool } },
        compaction: { contextBudget: 20_000, keepRecentToolResults: 1, toolResultCap: 10_000 },
      },
    });
    const chatId = await f.createChat('alice');
    const { chunks } = await readSse(await f.request('POST', '/chat', { body: { chatId, userMessageId: 'u1', content: 'go' } }));
    expect(chunks.filter((c) => c.type === 'tool-output-available')).toHaveLength(3);
    expect(scripted.calls).toHaveLength(4);
    const sizes = scripted.calls.map((call) => JSON.stringify(call.prompt.filter((m) => m.role !== 'system')).length);
    const uncompacted = 3 * 9_000;
    expect(uncompacted).toBeGreaterThan(20_000);
    for (const size of sizes) expect(size).toBeLessThanOrEqual(20_000);
  });
});
