import type { LanguageModelV2CallOptions, LanguageModelV2StreamPart } from '@ai-sdk/provider';
import { ChatwireError } from '@chatwire/storage';
import { convertArrayToReadableStream, MockLanguageModelV3 } from 'ai-v6/test';
import { MockLanguageModelV4 } from 'ai-v7/test';
import type { LanguageModelV4StreamPart } from 'provider-v7';
import { describe, expect, it } from 'vitest';
import { asLanguageModelV2 } from './as-language-model-v2.js';

const usage = {
  inputTokens: { total: 120, noCache: 20, cacheRead: 100, cacheWrite: 0 },
  outputTokens: { total: 30, text: 18, reasoning: 12 },
  raw: { anything: 1 },
};
const finish = (unified: string): LanguageModelV4StreamPart => ({ type: 'finish', finishReason: { unified, raw: 'raw-reason' } as never, usage });

/** The v2 parts an adapted v4 (AI SDK 7) mock model hands chatwire's loop for `parts`. */
async function v2Parts(parts: unknown[], call: Partial<LanguageModelV2CallOptions> = {}): Promise<{ parts: LanguageModelV2StreamPart[]; model: MockLanguageModelV4 }> {
  const model = new MockLanguageModelV4({ doStream: async () => ({ stream: convertArrayToReadableStream(parts as LanguageModelV4StreamPart[]) }) });
  const { stream } = await asLanguageModelV2(model).doStream({ prompt: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], ...call });
  const out: LanguageModelV2StreamPart[] = [];
  const reader = stream.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) out.push(read.value);
  return { parts: out, model };
}

function refusal(part: LanguageModelV2StreamPart | undefined): string {
  expect(part?.type).toBe('error');
  const error = (part as { error: unknown }).error;
  expect(ChatwireError.is(error, 'CONFIGURATION')).toBe(true);
  return (error as Error).message;
}

describe('a v4 model behind the v2 adapter: stream parts', () => {
  it('maps the finish: the unified reason (interrupted is other) and the usage, flat', async () => {
    const reasons = ['stop', 'length', 'content-filter', 'tool-calls', 'error', 'other', 'interrupted'];
    const seen = [];
    for (const reason of reasons) seen.push((await v2Parts([finish(reason)])).parts[0]);
    expect(seen.map((p) => (p as { finishReason: string }).finishReason)).toEqual(['stop', 'length', 'content-filter', 'tool-calls', 'error', 'other', 'other']);
    expect(seen[0]).toEqual({
      type: 'finish',
      finishReason: 'stop',
      usage: { inputTokens: 120, outputTokens: 30, totalTokens: 150, reasoningTokens: 12, cachedInputTokens: 100 },
    });
    const unknownCounts = { inputTokens: { total: undefined }, outputTokens: { total: undefined } };
    const { parts } = await v2Parts([{ type: 'finish', finishReason: { unified: 'stop', raw: undefined }, usage: unknownCounts }]);
    expect(parts[0]).toMatchObject({ usage: { inputTokens: undefined, outputTokens: undefined, totalTokens: undefined } });
  });

  it('maps warnings, tool parts, files and sources to their v2 shapes', async () => {
    const { parts } = await v2Parts([
      { type: 'stream-start', warnings: [{ type: 'unsupported', feature: 'topK', details: 'ignored' }, { type: 'deprecated', setting: 'seed', message: 'gone soon' }] },
      { type: 'tool-input-start', id: 'c1', toolName: 'search', providerExecuted: true, dynamic: true, title: 'Search', inputEncoding: 'json' },
      { type: 'tool-call', toolCallId: 'c1', toolName: 'search', input: '{}', providerExecuted: true, dynamic: true },
      { type: 'tool-result', toolCallId: 'c1', toolName: 'search', result: { hits: 1 }, dynamic: true },
      { type: 'file', mediaType: 'image/png', data: { type: 'data', data: 'iVBORw0KGgo=' } },
      { type: 'source', sourceType: 'url', id: 's1', url: 'https://example.com', title: 'Example' },
      { type: 'text-start', id: 't1' },
      { type: 'text-end', id: 't1', citations: [{ source: { type: 'source', sourceType: 'url', id: 's1', url: 'https://example.com' } }] },
    ]);
    expect(parts).toEqual([
      { type: 'stream-start', warnings: [{ type: 'other', message: 'unsupported: topK (ignored)' }, { type: 'other', message: 'deprecated: seed (gone soon)' }] },
      { type: 'tool-input-start', id: 'c1', toolName: 'search', providerExecuted: true },
      { type: 'tool-call', toolCallId: 'c1', toolName: 'search', input: '{}', providerExecuted: true },
      { type: 'tool-result', toolCallId: 'c1', toolName: 'search', result: { hits: 1 }, providerExecuted: true },
      { type: 'file', mediaType: 'image/png', data: 'iVBORw0KGgo=' },
      { type: 'source', sourceType: 'url', id: 's1', url: 'https://example.com', title: 'Example' },
      { type: 'text-start', id: 't1' },
      { type: 'text-end', id: 't1' },
    ]);
  });

  it('hands over nothing for a keep-alive, provider custom content and a preliminary provider result', async () => {
    const { parts } = await v2Parts([
      { type: 'ping' },
      { type: 'custom', kind: 'anthropic.message_start', providerMetadata: { anthropic: { id: 'msg_1' } } },
      { type: 'tool-result', toolCallId: 'ig1', toolName: 'image_generation', result: { result: 'partial' }, preliminary: true },
      finish('stop'),
    ]);
    expect(parts.map((p) => p.type)).toEqual(['finish']);
  });

  it.each([
    ['a tool approval request', { type: 'tool-approval-request', approvalId: 'ap1', toolCallId: 'c1' }, "'tool-approval-request' part", 'approval of a tool the provider runs itself is not supported'],
    ['a reasoning file', { type: 'reasoning-file', mediaType: 'image/png', data: { type: 'data', data: 'AAAA' } }, "'reasoning-file' part", 'reasoning files'],
    ['a file given by URL', { type: 'file', mediaType: 'image/png', data: { type: 'url', url: new URL('https://files.example/a.png') } }, "'file' part", 'a file given by URL'],
    ['a part type no specification has', { type: 'hologram', frames: 3 }, "'hologram' part", 'an unknown part type'],
  ])('refuses %s with an error part naming it and the model', async (_label, part, names, reason) => {
    const { parts } = await v2Parts([{ type: 'text-start', id: 't1' }, part, finish('stop')]);
    expect(parts.map((p) => p.type)).toEqual(['text-start', 'error', 'finish']);
    const message = refusal(parts[1]);
    expect(message).toContain(`model 'mock-provider/mock-model-id' (specification v4) sent a ${names}, which chatwire does not support`);
    expect(message).toContain(reason);
  });
});

describe('a v3 or v4 model behind the v2 adapter: call options', () => {
  const call: Partial<LanguageModelV2CallOptions> = {
    prompt: [
      { role: 'system', content: 'be brief' },
      { role: 'user', content: [{ type: 'text', text: 'look' }, { type: 'file', mediaType: 'image/png', data: new Uint8Array([1, 2]) }, { type: 'file', mediaType: 'application/pdf', data: new URL('https://x.example/a.pdf') }] },
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'shot', input: {} }] },
      {
        role: 'tool',
        content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'shot', output: { type: 'content', value: [{ type: 'text', text: 'here' }, { type: 'media', data: 'AAAA', mediaType: 'image/png' }, { type: 'media', data: 'BBBB', mediaType: 'application/pdf' }] } }],
      },
    ],
    tools: [
      { type: 'function', name: 'shot', inputSchema: { type: 'object' } },
      { type: 'provider-defined', id: 'anthropic.web_search_20250305', name: 'web_search', args: { maxUses: 3 } },
    ],
    toolChoice: { type: 'tool', toolName: 'shot' },
    maxOutputTokens: 100,
  };

  it('v4: files tagged, media results as file content, provider tools as provider, settings kept', async () => {
    const { model } = await v2Parts([finish('stop')], call);
    const sent = model.doStreamCalls[0]!;
    expect(sent.prompt[1]!.content).toEqual([
      { type: 'text', text: 'look' },
      { type: 'file', mediaType: 'image/png', data: { type: 'data', data: new Uint8Array([1, 2]) } },
      { type: 'file', mediaType: 'application/pdf', data: { type: 'url', url: new URL('https://x.example/a.pdf') } },
    ]);
    expect((sent.prompt[3]!.content[0] as { output: unknown }).output).toEqual({
      type: 'content',
      value: [
        { type: 'text', text: 'here' },
        { type: 'file', data: { type: 'data', data: 'AAAA' }, mediaType: 'image/png' },
        { type: 'file', data: { type: 'data', data: 'BBBB' }, mediaType: 'application/pdf' },
      ],
    });
    expect(sent.tools).toEqual([call.tools![0], { type: 'provider', id: 'anthropic.web_search_20250305', name: 'web_search', args: { maxUses: 3 } }]);
    expect(sent).toMatchObject({ toolChoice: { type: 'tool', toolName: 'shot' }, maxOutputTokens: 100 });
  });

  it('v3: files as they are, media results as image-data or file-data, provider tools as provider', async () => {
    const model = new MockLanguageModelV3({ doStream: async () => ({ stream: convertArrayToReadableStream([finish('stop')] as never[]) }) });
    const { stream } = await asLanguageModelV2(model).doStream(call as LanguageModelV2CallOptions);
    await stream.pipeTo(new WritableStream());
    const sent = model.doStreamCalls[0]!;
    expect(sent.prompt[1]).toEqual(call.prompt![1]);
    expect((sent.prompt[3]!.content[0] as { output: { value: unknown[] } }).output.value.slice(1)).toEqual([
      { type: 'image-data', data: 'AAAA', mediaType: 'image/png' },
      { type: 'file-data', data: 'BBBB', mediaType: 'application/pdf' },
    ]);
    expect(sent.tools![1]).toEqual({ type: 'provider', id: 'anthropic.web_search_20250305', name: 'web_search', args: { maxUses: 3 } });
  });
});
