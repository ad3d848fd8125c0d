import { describe, expect, it } from 'vitest';
import type { Action } from './action.js';
import { CHUNK_TYPES_WITHOUT_ACTION, chunkToAction } from './chunk-to-action.js';
import { VALID_CHUNKS } from './test-support/sample-chunks.js';
import type { UiMessageChunk } from './ui-message-chunk.js';

const chunk = (type: string) => VALID_CHUNKS[type] as unknown as UiMessageChunk;

const expected: Record<string, Action | undefined> = {
  'text-delta': { type: 'append-text', id: 't1', delta: 'Hi "there"\n' },
  'tool-input-start': {
    type: 'upsert-tool-call',
    toolCallId: 'c1',
    state: 'input-streaming',
    toolName: 'records_query',
    dynamic: false,
  },
  'tool-input-delta': { type: 'upsert-tool-call', toolCallId: 'c1', state: 'input-streaming', inputTextDelta: '{"a":' },
  'tool-input-available': {
    type: 'upsert-tool-call',
    toolCallId: 'c1',
    state: 'input-available',
    toolName: 'records_query',
    input: { a: 1 },
    providerExecuted: false,
  },
  'tool-output-available': { type: 'finalize-tool-call', toolCallId: 'c1', output: { rows: [] }, preliminary: true },
  'tool-input-error': {
    type: 'fail-tool-input',
    toolCallId: 'c2',
    toolName: 'weather',
    input: '{"city":',
    errorText: 'JSON parsing failed',
  },
  'tool-output-error': { type: 'fail-tool-output', toolCallId: 'c1', errorText: 'boom' },
  error: { type: 'stream-error', errorText: 'provider down', origin: 'server' },
  abort: { type: 'abort', origin: 'server' },
  finish: { type: 'finish', finishReason: 'stop' },
};

describe('chunkToAction', () => {
  it.each(Object.entries(expected))('maps %s to its action', (type, action) => {
    expect(chunkToAction(chunk(type))).toEqual(action);
  });

  it.each(CHUNK_TYPES_WITHOUT_ACTION)('maps %s to no action', (type) => {
    expect(chunkToAction(chunk(type))).toBeUndefined();
  });

  it('covers every chunk type exactly once between the two lists', () => {
    const all = [...Object.keys(expected), ...CHUNK_TYPES_WITHOUT_ACTION].sort();
    expect(all).toEqual(Object.keys(VALID_CHUNKS).sort());
  });

  it('omits optional fields the chunk did not carry', () => {
    expect(chunkToAction({ type: 'finish' })).toEqual({ type: 'finish' });
    expect(chunkToAction({ type: 'tool-output-available', toolCallId: 'c', output: 1 })).toEqual({
      type: 'finalize-tool-call',
      toolCallId: 'c',
      output: 1,
    });
    const start = chunkToAction({ type: 'tool-input-start', toolCallId: 'c', toolName: 'n' });
    expect(Object.keys(start ?? {})).toEqual(['type', 'toolCallId', 'state', 'toolName']);
  });
});
