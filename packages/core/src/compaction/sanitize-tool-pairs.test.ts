import type { ModelMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { sanitizeToolPairs } from './sanitize-tool-pairs.js';
import { assertPaired, assistant, deepFreeze, jsonResult, toolCall, toolCalls, toolMessage, user } from './testing/history-fixtures.js';

describe('sanitizeToolPairs', () => {
  it('leaves a well-formed prompt unchanged (same objects)', () => {
    const input = deepFreeze([user('a'), toolCalls('x', ['c1', 'c2']), toolMessage(jsonResult('c1', 1)), toolMessage(jsonResult('c2', 2)), assistant('b'), user('c')]);
    const { messages, dropped } = sanitizeToolPairs(input);
    expect(dropped).toBe(0);
    messages.forEach((m, i) => expect(m).toBe(input[i]));
  });

  it('drops a tool call without a result, and its message when nothing else is left', () => {
    const { messages } = sanitizeToolPairs([user('a'), toolCall('c1'), user('b')]);
    expect(messages).toEqual([user('a'), user('b')]);
  });

  it('drops only the unanswered call, keeping the text and the answered call', () => {
    const { messages } = sanitizeToolPairs([user('a'), toolCalls('look', ['c1', 'c2']), toolMessage(jsonResult('c2', 2))]);
    expect(messages[1]).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'look' }, { type: 'tool-call', toolCallId: 'c2', toolName: 'records_query', input: { q: 'c2' } }] });
    assertPaired(messages);
  });

  it('drops a result whose call is missing, or not right before it', () => {
    const { messages } = sanitizeToolPairs([user('a'), toolCall('c1'), user('b'), toolMessage(jsonResult('c1', 1)), user('c')]);
    expect(messages).toEqual([user('a'), user('b'), user('c')]);
  });

  it('drops duplicate results of one call and empty tool messages', () => {
    const { messages } = sanitizeToolPairs([user('a'), toolCall('c1'), toolMessage(jsonResult('c1', 1)), toolMessage(jsonResult('c1', 2)), { role: 'tool', content: [] }]);
    expect(messages).toEqual([user('a'), toolCall('c1'), toolMessage(jsonResult('c1', 1))]);
  });

  it('keeps provider-executed calls answered inside the same assistant message', () => {
    const msg: ModelMessage = {
      role: 'assistant',
      content: [
        { type: 'tool-call', toolCallId: 'w', toolName: 'web_search', input: {}, providerExecuted: true },
        { type: 'tool-result', toolCallId: 'w', toolName: 'web_search', output: { type: 'json', value: [] } },
        { type: 'text', text: 'found' },
      ],
    };
    expect(sanitizeToolPairs([user('a'), msg]).messages).toEqual([user('a'), msg]);
  });

  it('starts the list with a user message', () => {
    const { messages, dropped } = sanitizeToolPairs([assistant('x'), toolCall('c1'), toolMessage(jsonResult('c1', 1)), user('a'), assistant('b')]);
    expect(messages).toEqual([user('a'), assistant('b')]);
    expect(dropped).toBe(3);
  });
});
