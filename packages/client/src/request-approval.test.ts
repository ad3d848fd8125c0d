import { describe, expect, it } from 'vitest';
import { createAssistantMessage } from './assistant-message.js';
import { chunkToAction } from './chunk-to-action.js';
import { reduceAssistantMessageAll } from './reduce-assistant-message.js';
import type { UiMessageChunk } from './ui-message-chunk.js';

const approvalChunk = {
  type: 'data-tool-approval',
  id: 'call-1',
  data: { toolCallId: 'call-1', toolName: 'records_delete', input: { collection: 'notes', recordId: 'n1' } },
} as UiMessageChunk;

describe('the reducer and awaiting-approval', () => {
  it('data-tool-approval is request-approval; another data chunk, or a malformed one, is no action', () => {
    expect(chunkToAction(approvalChunk)).toEqual({ type: 'request-approval', toolCallId: 'call-1', toolName: 'records_delete', input: { collection: 'notes', recordId: 'n1' } });
    expect(chunkToAction({ type: 'data-weather', data: { city: 'Paris' } } as UiMessageChunk)).toBeUndefined();
    expect(chunkToAction({ type: 'data-tool-approval', data: { toolCallId: 1 } } as UiMessageChunk)).toBeUndefined();
  });

  it('a paused turn ends awaiting-approval (its finish keeps it); the continuation’s output clears the request, its finish makes it done', () => {
    const chunks: UiMessageChunk[] = [
      { type: 'tool-input-available', toolCallId: 'call-1', toolName: 'records_delete', input: { collection: 'notes', recordId: 'n1' } } as UiMessageChunk,
      approvalChunk,
      { type: 'finish' } as UiMessageChunk,
    ];
    const paused = reduceAssistantMessageAll(createAssistantMessage('a1'), chunks.map((c) => chunkToAction(c)!).filter(Boolean));
    expect(paused.status).toBe('awaiting-approval');
    expect(paused.parts).toEqual([
      { type: 'tool-call', toolCallId: 'call-1', toolName: 'records_delete', state: 'input-available', input: { collection: 'notes', recordId: 'n1' }, inputText: '', approval: 'requested' },
    ]);
    const continued = reduceAssistantMessageAll({ ...paused, status: 'streaming' }, [
      { type: 'finalize-tool-call', toolCallId: 'call-1', output: { deleted: true } },
      { type: 'append-text', id: 't', delta: 'Done.' },
      { type: 'finish' },
    ]);
    expect(continued.status).toBe('done');
    expect(continued.parts[0]).toEqual({
      type: 'tool-call',
      toolCallId: 'call-1',
      toolName: 'records_delete',
      state: 'output-available',
      input: { collection: 'notes', recordId: 'n1' },
      inputText: '',
      output: { deleted: true },
    });
  });
});
