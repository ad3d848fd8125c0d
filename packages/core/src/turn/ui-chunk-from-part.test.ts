import type { LanguageModelV2StreamPart } from '@ai-sdk/provider';
import { dynamicTool, jsonSchema, stepCountIs, streamText, tool, type ToolSet, type UIMessageChunk } from 'ai';
import { convertArrayToReadableStream, MockLanguageModelV2 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toolErrorText } from './error-text.js';
import { uiChunkFromPart } from './ui-chunk-from-part.js';

const usage = { inputTokens: 3, outputTokens: 5, totalTokens: 8 };

/** Step 1 of the scripted model: every kind of tool call chatwire must map like the SDK. */
const STEP_1: LanguageModelV2StreamPart[] = [
  { type: 'stream-start', warnings: [] },
  { type: 'reasoning-start', id: 'r1' },
  { type: 'reasoning-delta', id: 'r1', delta: 'thinking' },
  { type: 'reasoning-end', id: 'r1' },
  { type: 'text-start', id: 't1', providerMetadata: { openai: { itemId: 'msg_1' } } },
  { type: 'text-delta', id: 't1', delta: 'Searching.' },
  { type: 'text-end', id: 't1' },
  // A provider-executed tool (web search) with its result in the same stream.
  { type: 'tool-input-start', id: 'srv1', toolName: 'web_search', providerExecuted: true },
  { type: 'tool-input-delta', id: 'srv1', delta: '{"query":"x"}' },
  { type: 'tool-input-end', id: 'srv1' },
  { type: 'tool-call', toolCallId: 'srv1', toolName: 'web_search', input: '{"query":"x"}', providerExecuted: true },
  { type: 'tool-result', toolCallId: 'srv1', toolName: 'web_search', result: [{ url: 'https://a.test' }], providerExecuted: true },
  { type: 'source', sourceType: 'url', id: 's1', url: 'https://a.test' },
  // A provider-executed tool that failed on the provider's side.
  { type: 'tool-call', toolCallId: 'srv2', toolName: 'web_search', input: '{"query":"y"}', providerExecuted: true },
  { type: 'tool-result', toolCallId: 'srv2', toolName: 'web_search', result: { type: 'web_search_tool_result_error', errorCode: 'max_uses_exceeded' }, isError: true, providerExecuted: true },
  // A dynamic tool, a static tool with valid, schema-failing and malformed input, an unknown tool, a throwing tool.
  { type: 'tool-input-start', id: 'd1', toolName: 'lookup' },
  { type: 'tool-call', toolCallId: 'd1', toolName: 'lookup', input: '{"key":"k"}' },
  { type: 'tool-call', toolCallId: 'w1', toolName: 'weather', input: '{"city":"Paris"}' },
  { type: 'tool-call', toolCallId: 'w2', toolName: 'weather', input: '{"city":42}' },
  { type: 'tool-call', toolCallId: 'w3', toolName: 'weather', input: '{"city":' },
  { type: 'tool-call', toolCallId: 'n1', toolName: 'nope', input: '{"a":1}' },
  { type: 'tool-call', toolCallId: 'b1', toolName: 'broken', input: '{}' },
  { type: 'tool-call', toolCallId: 'p1', toolName: 'progress', input: '{}' },
  { type: 'file', mediaType: 'image/png', data: 'iVBORw0KGgo=' },
  { type: 'finish', finishReason: 'tool-calls', usage },
];

const STEP_2: LanguageModelV2StreamPart[] = [
  { type: 'text-start', id: 't2' },
  { type: 'text-delta', id: 't2', delta: 'Done.' },
  { type: 'text-end', id: 't2' },
  { type: 'error', error: new Error('upstream hiccup') },
  { type: 'finish', finishReason: 'stop', usage },
];

function toolSet(): ToolSet {
  return {
    web_search: { type: 'provider-defined', id: 'anthropic.web_search_20250305', name: 'web_search', args: {}, inputSchema: jsonSchema({ type: 'object' }) },
    lookup: dynamicTool({ description: 'Looks up a key.', inputSchema: z.object({ key: z.string() }), execute: async () => ({ found: true }) }),
    weather: tool({ description: 'Weather.', inputSchema: z.object({ city: z.string() }), execute: async ({ city }) => ({ city, temp: 21 }) }),
    broken: tool({ description: 'Throws.', inputSchema: z.object({}), execute: async (): Promise<{ ok: boolean }> => { throw new Error('boom in tool'); } }),
    progress: tool({
      description: 'Streams progress.',
      inputSchema: z.object({}),
      async *execute() {
        yield { done: 1 };
        yield { done: 2 };
      },
    }),
  } as ToolSet;
}

async function readAll<T>(stream: ReadableStream<T>): Promise<T[]> {
  const out: T[] = [];
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return out;
    out.push(value);
  }
}

describe('uiChunkFromPart', () => {
  it('maps every part as toUIMessageStream({ sendReasoning: false }) does, minus reasoning, providerMetadata, start and error texts', async () => {
    let step = 0;
    const model = new MockLanguageModelV2({
      doStream: async () => ({ stream: convertArrayToReadableStream(step++ === 0 ? STEP_1 : STEP_2) }),
    });
    const tools = toolSet();
    const result = streamText({ model, prompt: 'hi', tools, stopWhen: stepCountIs(2), onError: () => undefined });
    const [parts, sdk] = await Promise.all([
      readAll(result.fullStream),
      readAll(result.toUIMessageStream({ sendReasoning: false, onError: toolErrorText }) as ReadableStream<UIMessageChunk>),
    ]);
    const ours = parts.flatMap((part) => {
      const chunk = uiChunkFromPart(part, tools);
      return chunk ? [chunk] : [];
    });
    const expected = sdk
      .filter((chunk) => chunk.type !== 'start' && !chunk.type.startsWith('reasoning-'))
      .map((chunk) => {
        const { providerMetadata: _dropped, ...rest } = chunk as UIMessageChunk & { providerMetadata?: unknown };
        return rest.type === 'error' ? { type: 'error', errorText: 'The model call failed.' } : rest;
      });
    expect(ours).toEqual(expected);

    // The cases the SDK's mapping hinges on, spelled out.
    expect(ours).toContainEqual({ type: 'tool-input-start', toolCallId: 'srv1', toolName: 'web_search', providerExecuted: true });
    expect(ours).toContainEqual({ type: 'tool-input-available', toolCallId: 'srv1', toolName: 'web_search', input: { query: 'x' }, providerExecuted: true });
    expect(ours).toContainEqual({ type: 'tool-output-available', toolCallId: 'srv1', output: [{ url: 'https://a.test' }], providerExecuted: true });
    expect(ours).toContainEqual({ type: 'tool-output-error', toolCallId: 'srv2', errorText: 'The tool failed.', providerExecuted: true });
    expect(ours).toContainEqual({ type: 'tool-input-start', toolCallId: 'd1', toolName: 'lookup', dynamic: true });
    expect(ours).toContainEqual({ type: 'tool-output-available', toolCallId: 'd1', output: { found: true }, dynamic: true });
    expect(ours).toContainEqual({ type: 'tool-output-available', toolCallId: 'p1', output: { done: 1 }, preliminary: true });
    // An unknown tool is marked dynamic by the SDK's parser, but its UI chunks stay static.
    const unknown = ours.filter((chunk) => 'toolCallId' in chunk && chunk.toolCallId === 'n1');
    expect(unknown.map((chunk) => chunk.type)).toEqual(['tool-input-error', 'tool-output-error']);
    for (const chunk of unknown) expect(chunk).not.toHaveProperty('dynamic');
  });

  it('without the tool set no chunk is marked dynamic', () => {
    expect(uiChunkFromPart({ type: 'tool-input-start', id: 'd1', toolName: 'lookup', dynamic: true })).toEqual({
      type: 'tool-input-start',
      toolCallId: 'd1',
      toolName: 'lookup',
    });
  });

  it('sends no providerMetadata, reasoning, source or raw chunk', () => {
    const meta = { anthropic: { signature: 'sig' } };
    expect(uiChunkFromPart({ type: 'text-start', id: 't', providerMetadata: meta })).toEqual({ type: 'text-start', id: 't' });
    expect(uiChunkFromPart({ type: 'reasoning-delta', id: 'r', text: 'x', providerMetadata: meta })).toBeUndefined();
    expect(uiChunkFromPart({ type: 'source', sourceType: 'url', id: 's', url: 'https://a.test' })).toBeUndefined();
    expect(uiChunkFromPart({ type: 'raw', rawValue: {} })).toBeUndefined();
  });
});
