import type { ModelMessage } from 'ai';
import type { RecordEnvelope } from '@chatwire/storage';
import { describe, expect, it } from 'vitest';
import type { MessageData } from '../records/chat-collections.js';
import { historyEntries } from './load-history.js';
import { sanitizeStepMessages } from './provider-rules.js';

function assistantRow(parts: unknown[]): RecordEnvelope<MessageData> {
  return {
    recordId: 'a1',
    data: { chatId: 'c1', userId: 'alice', role: 'assistant', content: '', parts },
  } as unknown as RecordEnvelope<MessageData>;
}

function replay(parts: unknown[]): ModelMessage[] {
  return historyEntries([assistantRow(parts)])[0]?.messages ?? [];
}

function toolCallInputs(messages: ModelMessage[]): Record<string, unknown> {
  const inputs: Record<string, unknown> = {};
  for (const message of messages) {
    if (message.role !== 'assistant' || typeof message.content === 'string') continue;
    for (const part of message.content) if (part.type === 'tool-call') inputs[part.toolCallId] = part.input;
  }
  return inputs;
}

const failed = (toolCallId: string, rawInput: unknown) => ({
  type: 'tool-weather',
  toolCallId,
  state: 'output-error',
  rawInput,
  errorText: 'Invalid input for tool weather',
});

describe('historyEntries: a failed tool call is replayed with the input the model sent', () => {
  it('keeps an object, parses a JSON object string back, and sends {} for anything that is not an object', () => {
    const messages = replay([
      { type: 'step-start' },
      failed('object', { city: 42 }),
      failed('json-string', '{"city":"Paris"}'),
      failed('malformed', '{"city":'),
      failed('array', [1, 2]),
      failed('number', 7),
      failed('nothing', undefined),
      { type: 'tool-nope', toolCallId: 'unknown-tool', state: 'output-error', rawInput: { a: 1 }, errorText: "Model tried to call unavailable tool 'nope'." },
    ]);
    expect(toolCallInputs(messages)).toEqual({
      object: { city: 42 },
      'json-string': { city: 'Paris' },
      malformed: {},
      array: {},
      number: {},
      nothing: {},
      'unknown-tool': { a: 1 },
    });
    // Each failed call still carries its error back to the model.
    const tool = messages.find((m) => m.role === 'tool');
    expect(tool?.content).toHaveLength(7);
    expect(JSON.stringify(tool)).toContain('Invalid input for tool weather');
  });

  it('a failed call whose input was parsed (tool-input-available, then the tool threw) keeps that input', () => {
    const messages = replay([
      { type: 'tool-weather', toolCallId: 'w1', state: 'output-error', input: { city: 'Rome' }, errorText: 'boom in tool' },
    ]);
    expect(toolCallInputs(messages)).toEqual({ w1: { city: 'Rome' } });
  });

  it('replays dynamic tool parts', () => {
    const messages = replay([
      { type: 'step-start' },
      { type: 'dynamic-tool', toolName: 'lookup', toolCallId: 'd1', state: 'output-available', input: { key: 'k' }, output: { found: true } },
      { type: 'text', text: 'Found it.', state: 'done' },
    ]);
    expect(messages).toMatchObject([
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'd1', toolName: 'lookup', input: { key: 'k' } }, { type: 'text', text: 'Found it.' }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'd1', output: { type: 'json', value: { found: true } } }] },
    ]);
  });
});

describe('historyEntries: provider-executed tools', () => {
  it('leaves out every call the provider ran itself, finished or failed, and keeps the text around it', () => {
    const messages = replay([
      { type: 'step-start' },
      { type: 'text', text: 'Searching.', state: 'done' },
      { type: 'tool-web_search', toolCallId: 'srv1', state: 'output-error', input: { query: 'x' }, errorText: 'The tool failed.', providerExecuted: true },
      { type: 'tool-web_search', toolCallId: 'srv2', state: 'output-available', input: {}, output: { action: { type: 'search' } }, providerExecuted: true },
      { type: 'tool-code_execution', toolCallId: 'srv3', state: 'output-available', input: { code: '1' }, output: { stdout: '1' }, providerExecuted: true },
      { type: 'text', text: 'Could not search.', state: 'done' },
    ]);
    expect(messages).toEqual([{ role: 'assistant', content: [{ type: 'text', text: 'Searching.' }, { type: 'text', text: 'Could not search.' }] }]);
  });

  it('an answer made only of a provider tool call replays nothing', () => {
    expect(replay([{ type: 'step-start' }, { type: 'tool-web_search', toolCallId: 's', state: 'output-available', input: {}, output: [], providerExecuted: true }])).toEqual([]);
  });
});

describe('sanitizeStepMessages', () => {
  it('applies the same input rule to the SDK messages of earlier steps, and returns the same array when nothing changes', () => {
    const clean: ModelMessage[] = [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'weather', input: { city: 'Paris' } }] },
    ];
    expect(sanitizeStepMessages(clean)).toBe(clean);

    const out = sanitizeStepMessages([
      {
        role: 'assistant',
        content: [
          { type: 'text', text: ' ' },
          { type: 'tool-call', toolCallId: 'a', toolName: 'weather', input: '{"city":' },
          { type: 'tool-call', toolCallId: 'b', toolName: 'weather', input: '{"city":"Oslo"}' },
          { type: 'tool-call', toolCallId: 'c', toolName: 'weather', input: { city: 42 } },
        ],
      },
    ]);
    expect(out).toEqual([
      {
        role: 'assistant',
        content: [
          { type: 'tool-call', toolCallId: 'a', toolName: 'weather', input: {} },
          { type: 'tool-call', toolCallId: 'b', toolName: 'weather', input: { city: 'Oslo' } },
          { type: 'tool-call', toolCallId: 'c', toolName: 'weather', input: { city: 42 } },
        ],
      },
    ]);
  });

  it('leaves out a provider-executed call that failed at the provider, with its error result, within the tool loop', () => {
    const out = sanitizeStepMessages([
      {
        role: 'assistant',
        content: [
          { type: 'tool-call', toolCallId: 'srv1', toolName: 'web_search', input: { query: 'x' }, providerExecuted: true },
          { type: 'tool-result', toolCallId: 'srv1', toolName: 'web_search', output: { type: 'error-json', value: { errorCode: 'max_uses_exceeded' } } },
          { type: 'tool-call', toolCallId: 'srv2', toolName: 'web_search', input: { query: 'y' }, providerExecuted: true },
          { type: 'tool-result', toolCallId: 'srv2', toolName: 'web_search', output: { type: 'json', value: [] } },
          { type: 'tool-call', toolCallId: 'w1', toolName: 'weather', input: { city: 'Oslo' } },
        ],
      },
    ]);
    expect(out).toEqual([
      {
        role: 'assistant',
        content: [
          { type: 'tool-call', toolCallId: 'srv2', toolName: 'web_search', input: { query: 'y' }, providerExecuted: true },
          { type: 'tool-result', toolCallId: 'srv2', toolName: 'web_search', output: { type: 'json', value: [] } },
          { type: 'tool-call', toolCallId: 'w1', toolName: 'weather', input: { city: 'Oslo' } },
        ],
      },
    ]);
  });
});
