/**
 * Streamed replies in each provider's real SSE wire format, for msw handlers in tests. Event order and
 * field names follow what the Anthropic Messages API, the OpenAI Responses API and OpenAI chat completions
 * send (including events the SDK ignores, such as `ping` and `response.in_progress`).
 */

export interface WireUsage {
  input: number;
  output: number;
  cached: number;
  reasoning: number;
}

const encoder = new TextEncoder();

/** An SSE body: `event:` lines when a name is given, one `data:` line per event, blank line between. */
export function sseResponse(events: Array<{ event?: string; data: unknown }>): Response {
  const text = events
    .map(({ event, data }) => `${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`)
    .join('');
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      // Split into two network chunks mid-event so the SDK's SSE parser has to reassemble.
      const bytes = encoder.encode(text);
      const middle = Math.floor(bytes.length / 2);
      controller.enqueue(bytes.slice(0, middle));
      controller.enqueue(bytes.slice(middle));
      controller.close();
    },
  });
  return new Response(body, {
    status: 200,
    headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' },
  });
}

/** Anthropic Messages: message_start, content_block_start, ping, content_block_delta..., message_delta, message_stop. */
export function anthropicText(model: string, words: string[], usage: WireUsage): Response {
  return sseResponse([
    {
      event: 'message_start',
      data: {
        type: 'message_start',
        message: {
          id: 'msg_01XFDUDYJgAACzvnptvVoYEL',
          type: 'message',
          role: 'assistant',
          model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: {
            input_tokens: usage.input,
            cache_creation_input_tokens: 0,
            cache_read_input_tokens: usage.cached,
            output_tokens: 1,
          },
        },
      },
    },
    { event: 'content_block_start', data: { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } } },
    { event: 'ping', data: { type: 'ping' } },
    ...words.map((text) => ({
      event: 'content_block_delta',
      data: { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } },
    })),
    { event: 'content_block_stop', data: { type: 'content_block_stop', index: 0 } },
    {
      event: 'message_delta',
      data: { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: usage.output } },
    },
    { event: 'message_stop', data: { type: 'message_stop' } },
  ]);
}

function responsesUsage(usage: WireUsage) {
  return {
    input_tokens: usage.input,
    input_tokens_details: { cached_tokens: usage.cached },
    output_tokens: usage.output,
    output_tokens_details: { reasoning_tokens: usage.reasoning },
    total_tokens: usage.input + usage.output,
  };
}

function responsesEnvelope(model: string, status: string, output: unknown[], usage: WireUsage | null) {
  return {
    id: 'resp_67ccd2bed1ec8190b14f964abc0542670bb6a6b452d3795b',
    object: 'response',
    created_at: 1741476542,
    status,
    model,
    output,
    store: false,
    usage: usage === null ? null : responsesUsage(usage),
  };
}

/** OpenAI Responses: response.created, output item + content part, output_text.delta..., response.completed. */
export function responsesText(model: string, words: string[], usage: WireUsage): Response {
  const itemId = 'msg_67ccd2bf17f0819081ff3bb2cf6508e60bb6a6b452d3795b';
  const text = words.join('');
  const doneItem = {
    id: itemId,
    type: 'message',
    status: 'completed',
    role: 'assistant',
    content: [{ type: 'output_text', text, annotations: [] }],
  };
  let seq = 0;
  const ev = (type: string, rest: Record<string, unknown>) => ({ event: type, data: { type, sequence_number: seq++, ...rest } });
  return sseResponse([
    ev('response.created', { response: responsesEnvelope(model, 'in_progress', [], null) }),
    ev('response.in_progress', { response: responsesEnvelope(model, 'in_progress', [], null) }),
    ev('response.output_item.added', {
      output_index: 0,
      item: { id: itemId, type: 'message', status: 'in_progress', role: 'assistant', content: [] },
    }),
    ev('response.content_part.added', {
      item_id: itemId,
      output_index: 0,
      content_index: 0,
      part: { type: 'output_text', text: '', annotations: [] },
    }),
    ...words.map((delta) =>
      ev('response.output_text.delta', { item_id: itemId, output_index: 0, content_index: 0, delta, logprobs: [] }),
    ),
    ev('response.output_text.done', { item_id: itemId, output_index: 0, content_index: 0, text, logprobs: [] }),
    ev('response.content_part.done', {
      item_id: itemId,
      output_index: 0,
      content_index: 0,
      part: { type: 'output_text', text, annotations: [] },
    }),
    ev('response.output_item.done', { output_index: 0, item: doneItem }),
    ev('response.completed', { response: responsesEnvelope(model, 'completed', [doneItem], usage) }),
  ]);
}

/** OpenAI Responses: one function_call output item streamed through function_call_arguments.delta. */
export function responsesToolCall(
  model: string,
  call: { callId: string; name: string; arguments: string },
  usage: WireUsage,
): Response {
  const itemId = 'fc_67ccd2bf17f0819081ff3bb2cf6508e60bb6a6b452d3795b';
  const item = { id: itemId, type: 'function_call', call_id: call.callId, name: call.name };
  let seq = 0;
  const ev = (type: string, rest: Record<string, unknown>) => ({ event: type, data: { type, sequence_number: seq++, ...rest } });
  const doneItem = { ...item, arguments: call.arguments, status: 'completed' };
  return sseResponse([
    ev('response.created', { response: responsesEnvelope(model, 'in_progress', [], null) }),
    ev('response.output_item.added', { output_index: 0, item: { ...item, arguments: '', status: 'in_progress' } }),
    ev('response.function_call_arguments.delta', { item_id: itemId, output_index: 0, delta: call.arguments }),
    ev('response.function_call_arguments.done', { item_id: itemId, output_index: 0, arguments: call.arguments }),
    ev('response.output_item.done', { output_index: 0, item: doneItem }),
    ev('response.completed', { response: responsesEnvelope(model, 'completed', [doneItem], usage) }),
  ]);
}

/** OpenAI chat completions chunks, a usage-only chunk (stream_options.include_usage), then [DONE]. */
export function chatCompletionsText(model: string, words: string[], usage: WireUsage): Response {
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) => ({
    data: {
      id: 'chatcmpl-B9MBs8CjcvOU2jLn4n570S5qMJKcT',
      object: 'chat.completion.chunk',
      created: 1741569952,
      model,
      system_fingerprint: 'fp_44709d6fcb',
      choices,
      ...extra,
    },
  });
  return sseResponse([
    chunk([{ index: 0, delta: { role: 'assistant', content: '' }, logprobs: null, finish_reason: null }]),
    ...words.map((content) => chunk([{ index: 0, delta: { content }, logprobs: null, finish_reason: null }])),
    chunk([{ index: 0, delta: {}, logprobs: null, finish_reason: 'stop' }]),
    chunk([], {
      usage: {
        prompt_tokens: usage.input,
        completion_tokens: usage.output,
        total_tokens: usage.input + usage.output,
        prompt_tokens_details: { cached_tokens: usage.cached },
        completion_tokens_details: { reasoning_tokens: usage.reasoning },
      },
    }),
    { data: '[DONE]' },
  ]);
}

/** Anthropic Messages: a lead-in text block, then one tool_use block whose input streams as input_json_delta. */
export function anthropicToolCall(
  model: string,
  call: { id: string; name: string; input: Record<string, unknown>; leadIn?: string },
  usage: WireUsage,
): Response {
  const json = JSON.stringify(call.input);
  const middle = Math.floor(json.length / 2);
  const leadIn = call.leadIn ?? 'Let me check.';
  const delta = (index: number, d: Record<string, unknown>) => ({ event: 'content_block_delta', data: { type: 'content_block_delta', index, delta: d } });
  return sseResponse([
    {
      event: 'message_start',
      data: {
        type: 'message_start',
        message: {
          id: 'msg_01ToolCallQ2kV7nB4mZ8cR3xy',
          type: 'message',
          role: 'assistant',
          model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: usage.input, cache_creation_input_tokens: 0, cache_read_input_tokens: usage.cached, output_tokens: 1 },
        },
      },
    },
    { event: 'content_block_start', data: { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } } },
    delta(0, { type: 'text_delta', text: leadIn }),
    { event: 'content_block_stop', data: { type: 'content_block_stop', index: 0 } },
    {
      event: 'content_block_start',
      data: { type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: call.id, name: call.name, input: {} } },
    },
    delta(1, { type: 'input_json_delta', partial_json: '' }),
    delta(1, { type: 'input_json_delta', partial_json: json.slice(0, middle) }),
    delta(1, { type: 'input_json_delta', partial_json: json.slice(middle) }),
    { event: 'content_block_stop', data: { type: 'content_block_stop', index: 1 } },
    {
      event: 'message_delta',
      data: { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: usage.output } },
    },
    { event: 'message_stop', data: { type: 'message_stop' } },
  ]);
}

/** OpenAI chat completions: one tool call whose arguments stream in two pieces, finish_reason tool_calls, usage, [DONE]. */
export function chatCompletionsToolCall(
  model: string,
  call: { id: string; name: string; arguments: string },
  usage: WireUsage,
): Response {
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) => ({
    data: { id: 'chatcmpl-ToolCall8CjcvOU2jLn4n570S5q', object: 'chat.completion.chunk', created: 1741569952, model, choices, ...extra },
  });
  const middle = Math.floor(call.arguments.length / 2);
  const toolDelta = (fields: Record<string, unknown>) => chunk([{ index: 0, delta: { tool_calls: [{ index: 0, ...fields }] }, finish_reason: null }]);
  return sseResponse([
    chunk([
      {
        index: 0,
        delta: { role: 'assistant', content: null, tool_calls: [{ index: 0, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] },
        finish_reason: null,
      },
    ]),
    toolDelta({ function: { arguments: call.arguments.slice(0, middle) } }),
    toolDelta({ function: { arguments: call.arguments.slice(middle) } }),
    chunk([{ index: 0, delta: {}, finish_reason: 'tool_calls' }]),
    chunk([], { usage: { prompt_tokens: usage.input, completion_tokens: usage.output, total_tokens: usage.input + usage.output } }),
    { data: '[DONE]' },
  ]);
}
