import { describe, expect, it } from 'vitest';
import { createAssistantMessage } from './assistant-message.js';
import { mergeMessages } from './merge-messages.js';
import { reduceAssistantMessage } from './reduce-assistant-message.js';
import type { MessageRecord } from './route-types.js';

const row = (recordId: string, role: 'user' | 'assistant', content: string): MessageRecord => ({
  recordId,
  data: { chatId: 'c1', userId: 'u1', role, content },
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
});

const streaming = reduceAssistantMessage(createAssistantMessage('asst-2'), { type: 'append-text', id: 't', delta: 'Hel' });
const stored = [row('user-1', 'user', 'hi'), row('asst-1', 'assistant', 'hello')];

describe('mergeMessages', () => {
  it('maps stored rows and appends the pending user message and the streaming assistant', () => {
    const merged = mergeMessages(stored, { userMessageId: 'user-2', content: 'again', assistant: streaming });
    expect(merged.map((m) => [m.id, m.role, m.content, m.pending])).toEqual([
      ['user-1', 'user', 'hi', false],
      ['asst-1', 'assistant', 'hello', false],
      ['user-2', 'user', 'again', true],
      ['asst-2', 'assistant', 'Hel', true],
    ]);
    expect(merged[3]!.streaming).toBe(streaming);
  });

  it('shows each message once after the turn was stored (stored rows win)', () => {
    const after = [...stored, row('user-2', 'user', 'again'), { ...row('asst-2', 'assistant', 'Hello!'), data: { ...row('asst-2', 'assistant', 'Hello!').data, parts: [{ type: 'text' }] } }];
    const merged = mergeMessages(after, { userMessageId: 'user-2', content: 'again', assistant: streaming });
    expect(merged.map((m) => [m.id, m.content, m.pending])).toEqual([
      ['user-1', 'hi', false],
      ['asst-1', 'hello', false],
      ['user-2', 'again', false],
      ['asst-2', 'Hello!', false],
    ]);
    expect(merged[3]!.parts).toEqual([{ type: 'text' }]);
    expect(merged[3]!.streaming).toBeUndefined();
  });

  it('gives assistant messages a status: stored (absent reads as complete) and the reducer\'s stopped', () => {
    const stoppedRow = { ...row('asst-2', 'assistant', 'Hal'), data: { ...row('asst-2', 'assistant', 'Hal').data, status: 'stopped' as const } };
    const merged = mergeMessages([...stored, row('user-2', 'user', 'again'), stoppedRow], {
      userMessageId: 'user-3',
      content: 'more',
      assistant: reduceAssistantMessage({ ...streaming, id: 'asst-3' }, { type: 'stop' }),
    });
    expect(merged.map((m) => [m.id, m.status])).toEqual([
      ['user-1', undefined],
      ['asst-1', 'complete'],
      ['user-2', undefined],
      ['asst-2', 'stopped'],
      ['user-3', undefined],
      ['asst-3', 'stopped'],
    ]);
    expect(mergeMessages([], { userMessageId: 'u', content: 'x', assistant: streaming })[1]!.status).toBeUndefined();
  });

  it('puts the streaming assistant right after its user row when only the user row is stored', () => {
    const merged = mergeMessages([...stored, row('user-2', 'user', 'again')], { userMessageId: 'user-2', content: 'again', assistant: streaming });
    expect(merged.map((m) => m.id)).toEqual(['user-1', 'asst-1', 'user-2', 'asst-2']);
  });

  it('handles no pending turn, a turn without assistant yet, and several turns; never mutates inputs', () => {
    const input = [...stored];
    expect(mergeMessages(input).map((m) => m.id)).toEqual(['user-1', 'asst-1']);
    expect(mergeMessages(input, null)).toHaveLength(2);
    expect(mergeMessages(input, { userMessageId: 'u2', content: 'x' }).map((m) => m.id)).toEqual(['user-1', 'asst-1', 'u2']);
    const two = mergeMessages(input, [
      { userMessageId: 'u2', content: 'x', assistant: createAssistantMessage('a2') },
      { userMessageId: 'u3', content: 'y', assistant: createAssistantMessage() },
    ]);
    expect(two.map((m) => m.id)).toEqual(['user-1', 'asst-1', 'u2', 'a2', 'u3', 'u3:assistant']);
    expect(input).toHaveLength(2);
  });
});
