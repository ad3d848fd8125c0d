import type { LanguageModelV2CallOptions } from '@ai-sdk/provider';
import { MockLanguageModelV2 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { compactHistory } from './compact-history.js';
import { createCompactionConfig } from './compaction-config.js';
import { createModelSummarizer, SUMMARIZER_SYSTEM_PROMPT } from './create-model-summarizer.js';
import { chatHistory, entry, jsonResult, toolCall, toolMessage, user } from './testing/history-fixtures.js';

const usage = { inputTokens: 10, outputTokens: 5, totalTokens: 15 };

function mockModel(text = 'The user asked about invoices; record inv-7 was found.') {
  return new MockLanguageModelV2({
    doGenerate: async () => ({ content: [{ type: 'text', text }], finishReason: 'stop', usage, warnings: [] }),
  });
}

/** All text the model was sent, system prompt included. */
function promptText(call: LanguageModelV2CallOptions | undefined): string {
  return JSON.stringify(call?.prompt ?? []);
}

describe('createModelSummarizer', () => {
  const messages = [
    user('Find invoice inv-7 please'),
    toolCall('c1', { collection: 'invoices', id: 'inv-7' }),
    toolMessage(jsonResult('c1', { recordId: 'inv-7', total: 1234 })),
  ];

  it('sends the system prompt and the messages as a transcript, and returns the model text', async () => {
    const model = mockModel();
    const text = await createModelSummarizer(model)({ messages });
    expect(text).toBe('The user asked about invoices; record inv-7 was found.');
    expect(model.doGenerateCalls).toHaveLength(1);
    const call = model.doGenerateCalls[0];
    expect(call?.prompt[0]).toEqual({ role: 'system', content: SUMMARIZER_SYSTEM_PROMPT });
    expect(call?.prompt).toHaveLength(2);
    const prompt = promptText(call);
    expect(prompt).toContain('Find invoice inv-7 please');
    expect(prompt).toContain('called tool records_query [c1]');
    expect(prompt).toContain('\\"total\\":1234');
    expect(prompt).not.toContain('previous_summary');
    expect(call?.maxOutputTokens).toBe(1024);
  });

  it('includes the previous summary so it is folded into the new one', async () => {
    const model = mockModel();
    await createModelSummarizer(model, { maxOutputTokens: 300 })({ messages, previousSummary: 'Earlier: the user set up billing.' });
    const prompt = promptText(model.doGenerateCalls[0]);
    expect(prompt).toContain('<previous_summary>\\nEarlier: the user set up billing.\\n</previous_summary>');
    expect(prompt).toContain('Find invoice inv-7 please');
    expect(model.doGenerateCalls[0]?.maxOutputTokens).toBe(300);
  });

  it('passes the abort signal to the model call', async () => {
    const model = mockModel();
    const controller = new AbortController();
    await createModelSummarizer(model)({ messages, abortSignal: controller.signal });
    expect(model.doGenerateCalls[0]?.abortSignal).toBe(controller.signal);
  });

  it('works end to end in compactHistory: the summary replaces the older half', async () => {
    const model = mockModel('SUMMARY-TEXT');
    const entries = [...chatHistory(10, 200), entry('new', user('latest'))];
    const config = createCompactionConfig({ contextBudget: 3000, toolResultCap: 1000, minKept: 2 });
    const outcome = await compactHistory(entries, { config, summarize: createModelSummarizer(model) });
    expect(outcome.summary).toEqual({ text: 'SUMMARY-TEXT', throughId: 'e9' });
    expect(outcome.messages[0]).toEqual({ role: 'user', content: 'Summary of the earlier conversation:\nSUMMARY-TEXT' });
    expect(promptText(model.doGenerateCalls[0])).toContain('question 4');
    expect(promptText(model.doGenerateCalls[0])).not.toContain('question 5');
  });

  it('a failing model call falls back to the window with summarizerError set', async () => {
    const model = new MockLanguageModelV2({
      doGenerate: async () => {
        throw new Error('model exploded');
      },
    });
    const entries = [...chatHistory(10, 200), entry('new', user('latest'))];
    const config = createCompactionConfig({ contextBudget: 3000, toolResultCap: 1000, minKept: 2 });
    const outcome = await compactHistory(entries, { config, summarize: createModelSummarizer(model) });
    expect(outcome.summary).toBeNull();
    expect(outcome.report.summarizerError).toContain('model exploded');
    expect(outcome.report.stages).toEqual(['window']);
  });
});
