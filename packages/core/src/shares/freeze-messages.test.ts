import { describe, expect, it } from 'vitest';
import { userMessageRecordId } from '../records/message-record-id.js';
import { freezeMessages } from './freeze-messages.js';

const row = (recordId: string, data: Record<string, unknown>) => ({
  recordId,
  data: { chatId: 'c', userId: 'alice', content: '', ...data } as never,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
});

describe('freezeMessages', () => {
  it('keeps text and the names of tools, never tool inputs, outputs, errors, files or other parts', () => {
    const frozen = freezeMessages([
      row(userMessageRecordId('alice', 'm1'), { role: 'user', content: 'Find my notes', messageId: 'm1' }),
      row('a1', {
        role: 'assistant',
        content: 'Found one.',
        parts: [
          { type: 'step-start' },
          { type: 'tool-records_query', toolCallId: 'c1', state: 'output-available', input: { collection: 'secret' }, output: { rows: ['x'] } },
          { type: 'dynamic-tool', toolName: 'mcp_docs_read', toolCallId: 'c2', state: 'output-error', input: {}, errorText: 'token leaked' },
          { type: 'file', mediaType: 'image/png', url: 'https://private.example/signed?sig=1' },
          { type: 'reasoning', text: 'hidden' },
          { type: 'text', text: 'Found one.' },
          { type: 'text', text: '' },
          null,
        ],
      }),
      row('a2', { role: 'assistant', content: 'Legacy row without parts' }),
    ]);
    expect(frozen).toEqual([
      { id: 'm1', role: 'user', content: 'Find my notes', parts: [{ type: 'text', text: 'Find my notes' }], createdAt: '2026-01-01T00:00:00.000Z' },
      {
        id: 'a1',
        role: 'assistant',
        content: 'Found one.',
        parts: [
          { type: 'tool', toolName: 'records_query' },
          { type: 'tool', toolName: 'mcp_docs_read' },
          { type: 'text', text: 'Found one.' },
        ],
        createdAt: '2026-01-01T00:00:00.000Z',
      },
      { id: 'a2', role: 'assistant', content: 'Legacy row without parts', parts: [{ type: 'text', text: 'Legacy row without parts' }], createdAt: '2026-01-01T00:00:00.000Z' },
    ]);
    expect(JSON.stringify(frozen)).not.toMatch(/secret|rows|token leaked|private\.example|hidden/);
  });
});
