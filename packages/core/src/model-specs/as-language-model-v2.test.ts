import type { LanguageModelV2CallOptions, LanguageModelV2StreamPart } from '@ai-sdk/provider';
import { ChatwireError } from '@chatwire/storage';
import { generateText, streamText } from 'ai';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { createAnthropic as anthropicV6 } from 'anthropic-v6';
import { createAnthropic as anthropicV7 } from 'anthropic-v7';
import { createOpenAICompatible as compatibleV6 } from 'openai-compatible-v6';
import { createOpenAICompatible as compatibleV7 } from 'openai-compatible-v7';
import { createOpenAI as openaiV6 } from 'openai-v6';
import { createOpenAI as openaiV7 } from 'openai-v7';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AppLanguageModel } from './app-language-model.js';
import { asLanguageModelV2 } from './as-language-model-v2.js';

const BASE = 'http://provider.test/v1';
let requests: Array<Record<string, unknown>> = [];
let reply: () => Response = () => new Response('no reply set', { status: 500 });
const server = setupServer(
  http.post(`${BASE}/*`, async ({ request }) => {
    requests.push((await request.json()) as Record<string, unknown>);
    return reply();
  }),
);
beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
  // The packages warn that the test model ids are unknown to them.
  (globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;
});
afterEach(() => (requests = []));
afterAll(() => server.close());

const sse = (events: unknown[], named: boolean) =>
  new Response(events.map((e) => `${named ? `event: ${(e as { type: string }).type}\n` : ''}data: ${JSON.stringify(e)}\n\n`).join(''), { headers: { 'content-type': 'text/event-stream' } });

const anthropicAnswer = () =>
  sse(
    [
      { type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-x', content: [], stop_reason: null, usage: { input_tokens: 40, cache_read_input_tokens: 8, cache_creation_input_tokens: 0, output_tokens: 1 } } },
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hi there' } },
      { type: 'content_block_stop', index: 0 },
      { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 7 } },
      { type: 'message_stop' },
    ],
    true,
  );

const anthropic = { v6: anthropicV6({ baseURL: BASE, apiKey: 'k' })('claude-x'), v7: anthropicV7({ baseURL: BASE, apiKey: 'k' })('claude-x') };

async function read(stream: ReadableStream<LanguageModelV2StreamPart>): Promise<LanguageModelV2StreamPart[]> {
  const parts: LanguageModelV2StreamPart[] = [];
  const reader = stream.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) parts.push(read.value);
  return parts;
}

const CALL: LanguageModelV2CallOptions = {
  prompt: [
    { role: 'system', content: 'be brief' },
    { role: 'user', content: [{ type: 'text', text: 'what is this?' }, { type: 'file', mediaType: 'image/png', data: new Uint8Array([137, 80, 78, 71]) }] },
    { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'toolu_1', toolName: 'weather', input: { city: 'Oslo' } }] },
    { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'toolu_1', toolName: 'weather', output: { type: 'json', value: { temperatureC: 21 } } }] },
  ],
  tools: [
    { type: 'function', name: 'weather', description: 'Weather of a city.', inputSchema: { type: 'object', properties: { city: { type: 'string' } } } },
    { type: 'provider-defined', id: 'anthropic.web_search_20250305', name: 'web_search', args: { maxUses: 3 } },
  ],
  toolChoice: { type: 'tool', toolName: 'weather' },
  maxOutputTokens: 300,
};

describe.each(['v6', 'v7'] as const)('an Anthropic model of AI SDK %s behind the v2 adapter', (major) => {
  it('sends the v2 call as the provider package would send it natively', async () => {
    reply = anthropicAnswer;
    await read((await asLanguageModelV2(anthropic[major]).doStream(CALL)).stream);
    const body = requests[0]!;
    expect(body).toMatchObject({ system: [{ type: 'text', text: 'be brief' }], max_tokens: 300, tool_choice: { type: 'tool', name: 'weather' } });
    const messages = body.messages as Array<{ role: string; content: Array<Record<string, unknown>> }>;
    expect(messages[0]!.content[1]).toMatchObject({ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw==' } });
    expect(messages[1]!.content[0]).toMatchObject({ type: 'tool_use', id: 'toolu_1', name: 'weather', input: { city: 'Oslo' } });
    expect(messages[2]!.content[0]).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_1', content: '{"temperatureC":21}' });
    expect(body.tools).toEqual([
      expect.objectContaining({ name: 'weather', input_schema: { type: 'object', properties: { city: { type: 'string' } } } }),
      expect.objectContaining({ type: 'web_search_20250305', name: 'web_search', max_uses: 3 }),
    ]);
  });

  it('streams v2 parts: the text, then a string finish reason and flat usage', async () => {
    reply = anthropicAnswer;
    const parts = await read((await asLanguageModelV2(anthropic[major]).doStream(CALL)).stream);
    expect(parts.map((p) => p.type)).toEqual(['stream-start', 'response-metadata', 'text-start', 'text-delta', 'text-end', 'finish']);
    // AI SDK 6/7's Anthropic packages count cache reads into the input tokens (AI SDK 5's did not).
    expect(parts.at(-1)).toMatchObject({ type: 'finish', finishReason: 'stop', usage: { inputTokens: 48, outputTokens: 7, totalTokens: 55, cachedInputTokens: 8 } });
  });

  it("runs under AI SDK 5's own streamText (the step runner used with the SDK's telemetry)", async () => {
    reply = anthropicAnswer;
    const result = streamText({ model: asLanguageModelV2(anthropic[major]), prompt: 'hello', onError: () => undefined });
    let text = '';
    for await (const delta of result.textStream) text += delta;
    expect(text).toBe('Hi there');
    expect(await result.finishReason).toBe('stop');
  });
});

describe.each([
  ['v6', () => openaiV6({ baseURL: BASE, apiKey: 'k' }).responses('gpt-x')],
  ['v7', () => openaiV7({ baseURL: BASE, apiKey: 'k' }).responses('gpt-x')],
] as const)('an OpenAI Responses model of AI SDK %s behind the v2 adapter', (_major, model) => {
  it('refuses an MCP approval request with an error part naming it (chatwire has no approval step)', async () => {
    const response = (status: string) => ({ id: 'resp_1', object: 'response', created_at: 1, status, model: 'gpt-x', output: [], usage: null, error: null, incomplete_details: null });
    const approval = { id: 'mcpr_1', type: 'mcp_approval_request', server_label: 'crm', name: 'delete_contact', arguments: '{"id":"c9"}' };
    reply = () =>
      sse(
        [
          { type: 'response.created', response: response('in_progress'), sequence_number: 0 },
          { type: 'response.output_item.added', output_index: 0, item: approval, sequence_number: 1 },
          { type: 'response.output_item.done', output_index: 0, item: approval, sequence_number: 2 },
          { type: 'response.completed', response: { ...response('completed'), usage: { input_tokens: 5, output_tokens: 2, total_tokens: 7, input_tokens_details: { cached_tokens: 0 }, output_tokens_details: { reasoning_tokens: 0 } } }, sequence_number: 3 },
        ],
        true,
      );
    const parts = await read((await asLanguageModelV2(model()).doStream({ prompt: [{ role: 'user', content: [{ type: 'text', text: 'delete c9' }] }] })).stream);
    const error = parts.find((p) => p.type === 'error') as { error: Error } | undefined;
    expect(ChatwireError.is(error?.error, 'CONFIGURATION')).toBe(true);
    expect(error!.error.message).toContain("sent a 'tool-approval-request' part, which chatwire does not support");
    expect(parts.at(-1)).toMatchObject({ type: 'finish', usage: { inputTokens: 5, outputTokens: 2, totalTokens: 7 } });
  });
});

describe.each([
  ['v6', () => compatibleV6({ name: 'local', baseURL: BASE, apiKey: 'k' }).chatModel('oss')],
  ['v7', () => compatibleV7({ name: 'local', baseURL: BASE, apiKey: 'k' }).chatModel('oss')],
] as const)('an OpenAI-compatible model of AI SDK %s behind the v2 adapter', (_major, model) => {
  it("answers doGenerate (AI SDK 5's generateText: titles, summaries) with v2 content, finish reason and usage", async () => {
    reply = () =>
      HttpResponse.json({
        id: 'chatcmpl-1',
        object: 'chat.completion',
        created: 1,
        model: 'oss',
        choices: [{ index: 0, message: { role: 'assistant', content: 'A short title' }, finish_reason: 'length' }],
        usage: { prompt_tokens: 12, completion_tokens: 4, total_tokens: 16 },
      });
    const adapted = asLanguageModelV2(model() as AppLanguageModel);
    const result = await generateText({ model: adapted, prompt: 'name this chat' });
    expect(result.text).toBe('A short title');
    expect(result.finishReason).toBe('length');
    expect(result.usage).toMatchObject({ inputTokens: 12, outputTokens: 4, totalTokens: 16 });
    expect(requests[0]).toMatchObject({ model: 'oss', messages: [{ role: 'user', content: 'name this chat' }] });
  });
});
