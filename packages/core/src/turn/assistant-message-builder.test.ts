import { readUIMessageStream, type UIMessageChunk } from 'ai';
import { convertArrayToReadableStream } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { AssistantMessageBuilder } from './assistant-message-builder.js';

describe('AssistantMessageBuilder.appendText', () => {
  it('builds the same parts as applying text-delta chunks, and ignores a delta of an unknown text id', () => {
    const viaApply = new AssistantMessageBuilder();
    const viaAppend = new AssistantMessageBuilder();
    for (const builder of [viaApply, viaAppend]) {
      builder.apply({ type: 'start-step' });
      builder.apply({ type: 'text-start', id: 't1' });
    }
    for (const delta of ['Hel', 'lo ', 'there']) {
      viaApply.apply({ type: 'text-delta', id: 't1', delta });
      viaAppend.appendText('t1', delta);
    }
    viaApply.apply({ type: 'text-delta', id: 'nope', delta: 'x' });
    viaAppend.appendText('nope', 'x');
    for (const builder of [viaApply, viaAppend]) builder.apply({ type: 'text-end', id: 't1' });

    expect(viaAppend.parts).toEqual([{ type: 'step-start' }, { type: 'text', text: 'Hello there', state: 'done' }]);
    expect(viaAppend.parts).toEqual(viaApply.parts);
    expect(viaAppend.text()).toBe('Hello there');
  });
});

describe('AssistantMessageBuilder with long streams', () => {
  it('keeps the whole text and streamed tool input after hundreds of deltas, as the AI SDK reader does', async () => {
    const words = Array.from({ length: 300 }, (_, i) => (i % 9 === 0 ? `ü${i} ` : `w${i} `));
    const inputDeltas = ['{"text":"', ...Array.from({ length: 100 }, (_, i) => `p${i}`)];
    const chunks: UIMessageChunk[] = [
      { type: 'start-step' },
      { type: 'text-start', id: 't1' },
      ...words.map((delta): UIMessageChunk => ({ type: 'text-delta', id: 't1', delta })),
      { type: 'text-end', id: 't1' },
      { type: 'tool-input-start', toolCallId: 'c1', toolName: 'note' },
      ...inputDeltas.map((inputTextDelta): UIMessageChunk => ({ type: 'tool-input-delta', toolCallId: 'c1', inputTextDelta })),
    ];
    const builder = new AssistantMessageBuilder();
    for (const chunk of chunks) builder.apply(chunk);
    await builder.settle();
    expect(builder.text()).toBe(words.join(''));
    expect(builder.parts[1]).toEqual({ type: 'text', text: words.join(''), state: 'done' });
    expect(builder.parts[2]).toMatchObject({ state: 'input-streaming', rawInput: inputDeltas.join('') });
    expect(builder.parts).toEqual(await sdkParts(chunks));
  });

  it('starts the streamed input over when the part is restarted', () => {
    const builder = new AssistantMessageBuilder();
    builder.apply({ type: 'start-step' });
    builder.apply({ type: 'tool-input-start', toolCallId: 'c1', toolName: 'note' });
    for (let i = 0; i < 40; i++) builder.apply({ type: 'tool-input-delta', toolCallId: 'c1', inputTextDelta: 'a' });
    builder.apply({ type: 'tool-input-start', toolCallId: 'c1', toolName: 'note' });
    builder.apply({ type: 'tool-input-delta', toolCallId: 'c1', inputTextDelta: 'b' });
    expect(builder.parts[1]).toEqual({ type: 'tool-note', toolCallId: 'c1', state: 'input-streaming', rawInput: 'b' });
  });
});

/** The final message the AI SDK's own reader (`readUIMessageStream`, as in `useChat`) builds from `chunks`. */
async function sdkParts(chunks: UIMessageChunk[]): Promise<unknown[]> {
  let last: { parts: unknown[] } | undefined;
  for await (const message of readUIMessageStream({ stream: convertArrayToReadableStream(chunks) })) last = message;
  // Rows are JSON: fields the SDK leaves `undefined` are absent once stored.
  return JSON.parse(JSON.stringify(last!.parts)) as unknown[];
}

function builderParts(chunks: UIMessageChunk[]): unknown[] {
  const builder = new AssistantMessageBuilder();
  for (const chunk of chunks) builder.apply(chunk);
  return builder.parts;
}

describe('AssistantMessageBuilder matches the AI SDK reader', () => {
  it('provider-executed, dynamic, failed and preliminary tool calls, files, and call ids reused across steps', async () => {
    const chunks: UIMessageChunk[] = [
      { type: 'start', messageId: 'a1' },
      { type: 'start-step' },
      { type: 'text-start', id: 't1' },
      { type: 'text-delta', id: 't1', delta: 'Looking.' },
      { type: 'text-end', id: 't1' },
      { type: 'tool-input-start', toolCallId: 'srv1', toolName: 'web_search', providerExecuted: true },
      { type: 'tool-input-delta', toolCallId: 'srv1', inputTextDelta: '{"query":"x"}' },
      { type: 'tool-input-available', toolCallId: 'srv1', toolName: 'web_search', input: { query: 'x' }, providerExecuted: true },
      { type: 'tool-output-available', toolCallId: 'srv1', output: [{ url: 'https://a.test' }], providerExecuted: true },
      { type: 'tool-input-available', toolCallId: 'srv2', toolName: 'web_search', input: { query: 'y' }, providerExecuted: true },
      { type: 'tool-output-error', toolCallId: 'srv2', errorText: 'The tool failed.', providerExecuted: true },
      { type: 'tool-input-start', toolCallId: 'd1', toolName: 'lookup', dynamic: true },
      { type: 'tool-input-available', toolCallId: 'd1', toolName: 'lookup', input: { key: 'k' }, dynamic: true },
      { type: 'tool-output-available', toolCallId: 'd1', output: { found: true }, dynamic: true },
      { type: 'tool-input-error', toolCallId: 'd2', toolName: 'lookup', input: { key: 1 }, dynamic: true, errorText: 'bad key' },
      { type: 'tool-output-error', toolCallId: 'd2', errorText: 'bad key', dynamic: true },
      { type: 'tool-input-error', toolCallId: 'w2', toolName: 'weather', input: '{"city":', errorText: 'JSON parsing failed' },
      { type: 'tool-output-error', toolCallId: 'w2', errorText: 'JSON parsing failed (tool)' },
      { type: 'tool-input-available', toolCallId: 'p1', toolName: 'progress', input: {} },
      { type: 'tool-output-available', toolCallId: 'p1', output: { done: 1 }, preliminary: true },
      { type: 'tool-input-available', toolCallId: 'call_0', toolName: 'weather', input: { city: 'Paris' } },
      { type: 'tool-output-error', toolCallId: 'call_0', errorText: 'boom in tool' },
      { type: 'file', mediaType: 'image/png', url: 'data:image/png;base64,iVBORw0KGgo=' },
      { type: 'finish-step' },
      { type: 'start-step' },
      // Same call id as in step 1 (some OpenAI-compatible servers number calls per response).
      { type: 'tool-input-start', toolCallId: 'call_0', toolName: 'weather' },
      { type: 'tool-input-available', toolCallId: 'call_0', toolName: 'weather', input: { city: 'Rome' } },
      { type: 'tool-output-available', toolCallId: 'call_0', output: { temp: 25 } },
      { type: 'finish-step' },
      { type: 'start-step' },
      { type: 'text-start', id: 't1' },
      { type: 'text-delta', id: 't1', delta: 'Done.' },
      { type: 'text-end', id: 't1' },
      { type: 'finish-step' },
      { type: 'finish', finishReason: 'stop' },
    ];
    const built = builderParts(chunks);
    expect(built).toEqual(await sdkParts(chunks));
    expect(built).toContainEqual({ type: 'tool-web_search', toolCallId: 'srv1', state: 'output-available', input: { query: 'x' }, output: [{ url: 'https://a.test' }], providerExecuted: true });
    expect(built).toContainEqual({ type: 'dynamic-tool', toolName: 'lookup', toolCallId: 'd1', state: 'output-available', input: { key: 'k' }, output: { found: true } });
    expect(built.filter((part) => (part as { toolCallId?: string }).toolCallId === 'call_0')).toHaveLength(2);

    const builder = new AssistantMessageBuilder();
    for (const chunk of chunks) builder.apply(chunk);
    expect(builder.toolCalls().map((call) => [call.toolCallId, call.toolName, call.state])).toEqual([
      ['srv1', 'web_search', 'output-available'],
      ['srv2', 'web_search', 'output-error'],
      ['d1', 'lookup', 'output-available'],
      ['d2', 'lookup', 'output-error'],
      ['w2', 'weather', 'output-error'],
      ['p1', 'progress', 'output-available'],
      ['call_0', 'weather', 'output-error'],
      ['call_0', 'weather', 'output-available'],
    ]);
  });

  it('a final output clears the preliminary flag, and an input error keeps the raw input', async () => {
    const chunks: UIMessageChunk[] = [
      { type: 'start-step' },
      { type: 'tool-input-start', toolCallId: 'p1', toolName: 'progress' },
      { type: 'tool-input-available', toolCallId: 'p1', toolName: 'progress', input: {} },
      { type: 'tool-output-available', toolCallId: 'p1', output: { done: 1 }, preliminary: true },
      { type: 'tool-output-available', toolCallId: 'p1', output: { done: 2 } },
      { type: 'tool-input-error', toolCallId: 'w1', toolName: 'weather', input: { city: 42 }, errorText: 'Invalid input' },
      { type: 'tool-output-error', toolCallId: 'w1', errorText: 'Invalid input' },
      { type: 'finish-step' },
    ];
    const built = builderParts(chunks);
    expect(built).toEqual(await sdkParts(chunks));
    expect(built).toEqual([
      { type: 'step-start' },
      { type: 'tool-progress', toolCallId: 'p1', state: 'output-available', input: {}, output: { done: 2 } },
      { type: 'tool-weather', toolCallId: 'w1', state: 'output-error', rawInput: { city: 42 }, errorText: 'Invalid input' },
    ]);
  });
});

describe('AssistantMessageBuilder.settle', () => {
  it('a tool call the stream never finished keeps its streamed text and partial input, as the SDK reader does', async () => {
    const chunks: UIMessageChunk[] = [
      { type: 'start-step' },
      { type: 'tool-input-start', toolCallId: 'c1', toolName: 'weather' },
      { type: 'tool-input-delta', toolCallId: 'c1', inputTextDelta: '{"city": ' },
      { type: 'tool-input-delta', toolCallId: 'c1', inputTextDelta: '"Pa' },
      { type: 'tool-input-start', toolCallId: 'c2', toolName: 'weather' },
      { type: 'tool-input-start', toolCallId: 'c3', toolName: 'weather' },
      { type: 'tool-input-delta', toolCallId: 'c3', inputTextDelta: '{"city": "Oslo"}' },
      { type: 'tool-input-available', toolCallId: 'c3', toolName: 'weather', input: { city: 'Oslo' } },
    ];
    const builder = new AssistantMessageBuilder();
    for (const chunk of chunks) builder.apply(chunk);
    await builder.settle();
    expect(builder.parts).toEqual(await sdkParts(chunks));
    expect(builder.parts[1]).toEqual({ type: 'tool-weather', toolCallId: 'c1', state: 'input-streaming', rawInput: '{"city": "Pa', input: { city: 'Pa' } });
    expect(builder.parts[3]).toEqual({ type: 'tool-weather', toolCallId: 'c3', state: 'input-available', input: { city: 'Oslo' } });
  });
});

