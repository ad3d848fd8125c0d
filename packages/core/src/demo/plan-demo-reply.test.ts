import type { LanguageModelV2Prompt } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { planDemoReply } from './plan-demo-reply.js';

const ask = (text: string): LanguageModelV2Prompt => [{ role: 'user', content: [{ type: 'text', text }] }];
const tools = [{ type: 'function' as const, name: 'records_create', inputSchema: { type: 'object' as const } }];

function createdTitle(text: string): unknown {
  const plan = planDemoReply({ prompt: ask(text), tools });
  return plan.type === 'tool-call' ? (plan.input.data as { title: string }).title : undefined;
}

describe('planDemoReply note titles', () => {
  it.each([
    ['create a note titled Milk.', 'Milk'],
    ['create a note titled "Milk!"', 'Milk!'],
    ['create a note titled “Bread”?!', 'Bread'],
    ['add a note called  Eggs  ', 'Eggs'],
  ])('%s → %s', (text, title) => {
    expect(createdTitle(text)).toBe(title);
  });

  it('a long run of punctuation inside a title is handled in linear time (no regex backtracking)', () => {
    // With /[.!?]+$/ this input blocked the event loop for seconds; vitest's 5 s timeout would fail it.
    const title = `${'!'.repeat(1_900)}x`;
    expect(createdTitle(`create a note titled ${title}`)).toBe(title);
    expect(planDemoReply({ prompt: ask(`create a note titled ${'!'.repeat(1_000_000)}x`), tools }).type).toBe('tool-call');
  });

  it('a megabyte of repeated keywords is answered promptly (only the start of a message is matched)', () => {
    expect(planDemoReply({ prompt: ask('list '.repeat(200_000)), tools }).type).toBe('text');
  });
});
