import { describe, expect, it } from 'vitest';
import type { Action } from './action.js';
import { createAssistantMessage, toolCallsOf, type AssistantMessage } from './assistant-message.js';
import { decodeActions } from './decode-actions.js';
import { reduceAssistantMessage, reduceAssistantMessageAll } from './reduce-assistant-message.js';
import { collect, streamOfPieces } from './test-support/byte-streams.js';
import { recordUiStreamBytes } from './test-support/record-ui-stream.js';

const deepFreeze = <T>(value: T): T => {
  if (typeof value === 'object' && value !== null) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
};

/** Reduces with every intermediate state frozen: a mutation would throw in strict mode. */
function reduceFrozen(actions: Action[], initial = createAssistantMessage('a1')): AssistantMessage {
  let state = deepFreeze(initial);
  for (const action of actions) state = deepFreeze(reduceAssistantMessage(state, action));
  return state;
}

describe('reduceAssistantMessage', () => {
  it('builds text, tool calls and status from the recorded real-pipeline stream', async () => {
    const actions = await collect(decodeActions(streamOfPieces([await recordUiStreamBytes()])));
    const state = reduceFrozen(actions);
    expect(state.status).toBe('done');
    expect(state.finishReason).toBe('stop');
    expect(state.text).toBe('Grüße aus Zürich 👋 let me check — 東京?It is sunny, 21 °C.');
    expect(state.parts.map((p) => (p.type === 'text' ? `text:${p.id}` : `tool:${p.toolCallId}:${p.state}`))).toEqual([
      'text:t1',
      'tool:call-1:output-available',
      'tool:call-2:output-error',
      'tool:call-3:output-error',
      'text:t2',
    ]);
    const [ok, badInput, thrown] = toolCallsOf(state);
    expect(ok).toEqual({
      type: 'tool-call',
      toolCallId: 'call-1',
      toolName: 'weather',
      state: 'output-available',
      input: { city: 'Paris' },
      inputText: '{"city":"Paris"}',
      output: { city: 'Paris', temp: 21 },
    });
    expect(badInput).toMatchObject({ toolName: 'weather', input: { city: 42 }, errorText: expect.stringContaining('Invalid input') });
    expect(thrown).toMatchObject({ toolName: 'explode', input: {}, state: 'output-error', errorText: 'boom in tool' });
  });

  it('returns new objects and leaves the previous state untouched', () => {
    const s0 = createAssistantMessage('a1');
    const s1 = reduceAssistantMessage(s0, { type: 'append-text', id: 't', delta: 'a' });
    const s2 = reduceAssistantMessage(s1, { type: 'append-text', id: 't', delta: 'b' });
    expect(s0).toEqual({ id: 'a1', status: 'streaming', text: '', parts: [] });
    expect(s1.parts).toEqual([{ type: 'text', id: 't', text: 'a' }]);
    expect(s2.parts).toEqual([{ type: 'text', id: 't', text: 'ab' }]);
    expect(s2.parts).not.toBe(s1.parts);
  });

  it('opens a new text part per text id and appends to an earlier part with the same id', () => {
    const state = reduceFrozen([
      { type: 'append-text', id: 'a', delta: '1' },
      { type: 'append-text', id: 'b', delta: '2' },
      { type: 'append-text', id: 'a', delta: '3' },
    ]);
    expect(state.parts).toEqual([
      { type: 'text', id: 'a', text: '13' },
      { type: 'text', id: 'b', text: '2' },
    ]);
    expect(state.text).toBe('123');
  });

  it('walks a tool call through its states, with preliminary outputs', () => {
    const state = reduceFrozen([
      { type: 'upsert-tool-call', toolCallId: 'c', state: 'input-streaming', toolName: 'q', dynamic: true },
      { type: 'upsert-tool-call', toolCallId: 'c', state: 'input-streaming', inputTextDelta: '{"a"' },
      { type: 'upsert-tool-call', toolCallId: 'c', state: 'input-streaming', inputTextDelta: ':1}' },
    ]);
    expect(toolCallsOf(state)[0]).toMatchObject({ state: 'input-streaming', inputText: '{"a":1}', input: undefined, dynamic: true });
    const available = reduceAssistantMessage(state, { type: 'upsert-tool-call', toolCallId: 'c', state: 'input-available', toolName: 'q', input: { a: 1 } });
    expect(toolCallsOf(available)[0]).toMatchObject({ state: 'input-available', input: { a: 1 } });
    const prelim = reduceAssistantMessage(available, { type: 'finalize-tool-call', toolCallId: 'c', output: 1, preliminary: true });
    expect(toolCallsOf(prelim)[0]).toMatchObject({ state: 'output-available', output: 1, preliminary: true });
    const final = reduceAssistantMessage(prelim, { type: 'finalize-tool-call', toolCallId: 'c', output: 2 });
    expect(toolCallsOf(final)[0]).toMatchObject({ state: 'output-available', output: 2 });
    expect(toolCallsOf(final)[0]).not.toHaveProperty('preliminary');
    const late = reduceAssistantMessage(final, { type: 'upsert-tool-call', toolCallId: 'c', state: 'input-streaming', inputTextDelta: 'x' });
    expect(toolCallsOf(late)[0]!.state).toBe('output-available');
  });

  it('creates a call it has not seen instead of throwing', () => {
    const state = reduceFrozen([{ type: 'fail-tool-output', toolCallId: 'ghost', errorText: 'no' }]);
    expect(toolCallsOf(state)).toEqual([
      { type: 'tool-call', toolCallId: 'ghost', toolName: '', state: 'output-error', input: undefined, inputText: '', errorText: 'no' },
    ]);
  });

  it('keeps error when finish follows an error chunk, and the first error text', () => {
    const state = reduceFrozen([
      { type: 'stream-error', errorText: 'provider down', origin: 'server' },
      { type: 'stream-error', errorText: 'second', origin: 'server' },
      { type: 'finish', finishReason: 'error' },
    ]);
    expect(state).toMatchObject({ status: 'error', errorText: 'provider down', finishReason: 'error' });
  });

  it('moves to aborted on abort, but not out of error', () => {
    expect(reduceFrozen([{ type: 'abort', origin: 'server' }]).status).toBe('aborted');
    expect(reduceFrozen([{ type: 'abort', origin: 'client' }, { type: 'finish' }]).status).toBe('aborted');
    expect(reduceFrozen([{ type: 'stream-error', errorText: 'x', origin: 'network' }, { type: 'abort', origin: 'client' }]).status).toBe('error');
  });

  it('moves to stopped on stop, before or after finish (they race), but not out of error; abort and finish keep it', () => {
    const partial: Action = { type: 'append-text', id: 't', delta: 'Hel' };
    expect(reduceFrozen([partial, { type: 'stop' }, { type: 'finish', finishReason: 'stop' }])).toMatchObject({ status: 'stopped', text: 'Hel', finishReason: 'stop' });
    expect(reduceFrozen([partial, { type: 'finish', finishReason: 'stop' }, { type: 'stop' }]).status).toBe('stopped');
    expect(reduceFrozen([partial, { type: 'stop' }, { type: 'abort', origin: 'client' }]).status).toBe('stopped');
    expect(reduceFrozen([partial, { type: 'abort', origin: 'client' }, { type: 'stop' }]).status).toBe('stopped');
    expect(reduceFrozen([{ type: 'stream-error', errorText: 'x', origin: 'server' }, { type: 'stop' }]).status).toBe('error');
    const stopped = reduceFrozen([partial, { type: 'stop' }]);
    expect(reduceAssistantMessage(stopped, { type: 'stop' })).toBe(stopped);
  });

  it('reduceAssistantMessageAll folds a list', () => {
    const state = reduceAssistantMessageAll(createAssistantMessage(), [
      { type: 'append-text', id: 't', delta: 'hi' },
      { type: 'finish' },
    ]);
    expect(state).toEqual({ id: undefined, status: 'done', text: 'hi', parts: [{ type: 'text', id: 't', text: 'hi' }] });
  });
});
