import type { ModelMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { createPromptSizer, measureMessages } from './message-size.js';
import { assistant, jsonResult, textResult, toolCalls, toolMessage, user } from './testing/history-fixtures.js';

const messages: ModelMessage[] = [
  user('hello "quoted" \n newline ü 😀'),
  toolCalls('let me look', ['c1', 'c2']),
  toolMessage(
    jsonResult('c1', { rows: [{ id: 1, name: 'Zoë', note: 'line\nbreak' }], nested: { a: [1, 2, null] } }),
    textResult('c2', 'plain "text" result\t'),
  ),
  {
    role: 'tool',
    content: [
      { type: 'tool-result', toolCallId: 'c3', toolName: 't', output: { type: 'error-json', value: { e: 1 } } },
      { type: 'tool-result', toolCallId: 'c4', toolName: 't', output: { type: 'content', value: [{ type: 'text', text: 'x' }] } },
      { type: 'tool-result', toolCallId: 'c5', toolName: 't', output: { type: 'json', value: 'a string' } },
    ],
  },
  assistant('done'),
];

describe('measureMessages', () => {
  it('is exactly JSON.stringify(messages).length', () => {
    expect(measureMessages(messages)).toBe(JSON.stringify(messages).length);
    expect(measureMessages([])).toBe(2);
    expect(measureMessages([user('x')])).toBe(JSON.stringify([user('x')]).length);
  });

  it('measures each message, tool results included, like JSON.stringify', () => {
    const sizer = createPromptSizer();
    for (const msg of messages) expect(sizer.message(msg)).toBe(JSON.stringify(msg).length);
  });

  it('measures message groups laid end to end', () => {
    const sizer = createPromptSizer();
    expect(sizer.groups([messages.slice(0, 2), [], messages.slice(2)])).toBe(JSON.stringify(messages).length);
  });
});
