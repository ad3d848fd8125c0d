import type { ModelMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { compactStepMessages } from './compact-step-messages.js';
import { createCompactionConfig } from './compaction-config.js';
import { measureMessages } from './message-size.js';
import { createSummaryMessage } from './summary-message.js';
import { assertPaired, assistant, deepFreeze, jsonResult, toolCall, toolCalls, toolMessage, user } from './testing/history-fixtures.js';

const config = createCompactionConfig({ contextBudget: 2000, toolResultCap: 600, keepRecentToolResults: 2, minKept: 1, oldToolResultBytes: 150 });

/** Earlier turns, then the current turn: user message + its tool steps. */
function prompt(earlierTurns: number, stepResults: string[]): ModelMessage[] {
  const out: ModelMessage[] = [];
  for (let i = 0; i < earlierTurns; i++) {
    out.push(user(`q${i}`.padEnd(150, '.')), toolCall(`h${i}`), toolMessage(jsonResult(`h${i}`, `r${i}`.padEnd(100, '.'))), assistant(`a${i}`.padEnd(150, '.')));
  }
  out.push(user('current question'));
  stepResults.forEach((payload, i) => out.push(toolCall(`s${i}`), toolMessage(jsonResult(`s${i}`, payload))));
  return out;
}

describe('compactStepMessages', () => {
  it('returns a small prompt unchanged', () => {
    const messages = deepFreeze(prompt(1, ['ok']));
    const { messages: out, report } = compactStepMessages(messages, config);
    expect(out).toEqual(messages);
    expect(report).toMatchObject({ stages: [], droppedEntries: 0, withinBudget: true, charsBefore: JSON.stringify(messages).length });
  });

  it('truncates tool results, counting the turn\'s own results as the most recent', () => {
    const messages = prompt(0, ['x'.repeat(400), 'y'.repeat(400), 'z'.repeat(400)]);
    const { messages: out, report } = compactStepMessages(messages, { ...config, contextBudget: 100000 });
    const outputs = out.flatMap((m) => (m.role === 'tool' ? m.content.map((p) => p.output.type) : []));
    expect(outputs).toEqual(['text', 'json', 'json']);
    expect(report.stages).toEqual(['truncate']);
  });

  it('drops earlier turns whole, keeping calls with their results', () => {
    const messages = prompt(8, ['ok']);
    const { messages: out, report } = compactStepMessages(messages, config);
    expect(report.stages).toContain('window');
    expect(report.withinBudget).toBe(true);
    expect(measureMessages(out)).toBeLessThanOrEqual(config.contextBudget);
    expect(out[0]?.role).toBe('user');
    assertPaired(out);
    expect(out).toEqual(messages.slice(messages.length - out.length));
  });

  it('always keeps the newest user message and the turn\'s steps after it', () => {
    const steps = ['a'.repeat(500), 'b'.repeat(500), 'c'.repeat(500)];
    const messages = prompt(4, steps);
    const { messages: out, report } = compactStepMessages(messages, { ...config, contextBudget: 1000 });
    const current = messages.findIndex((m) => m.role === 'user' && m.content === 'current question');
    const tail = compactStepMessages(messages.slice(current), { ...config, contextBudget: 100000 }).messages; // truncated the same way
    expect(out.slice(-tail.length)).toEqual(tail);
    expect(out[0]).toEqual(user('current question'));
    expect(report.withinBudget).toBe(false); // the turn alone is over budget: nothing more may go
  });

  it('keeps a leading summary message while it can drop conversation instead', () => {
    const messages = [createSummaryMessage('earlier stuff'), ...prompt(8, ['ok'])];
    const { messages: out } = compactStepMessages(messages, config);
    expect(out[0]).toEqual(createSummaryMessage('earlier stuff'));
    expect(out.length).toBeLessThan(messages.length);
    assertPaired(out);
  });

  it('drops orphaned pieces (a call without result from an aborted earlier turn)', () => {
    const messages = [user('a'), toolCalls('looking', ['lost']), user('b'), toolCall('s1'), toolMessage(jsonResult('s1', 1))];
    const { messages: out } = compactStepMessages(messages, config);
    const textOnly: ModelMessage = { role: 'assistant', content: [{ type: 'text', text: 'looking' }] };
    expect(out).toEqual([user('a'), textOnly, user('b'), toolCall('s1'), toolMessage(jsonResult('s1', 1))]);
  });

  it('is deterministic and leaves its input alone', () => {
    const messages = deepFreeze(prompt(8, ['x'.repeat(900)]));
    expect(compactStepMessages(messages, config)).toEqual(compactStepMessages(messages, config));
  });
});
