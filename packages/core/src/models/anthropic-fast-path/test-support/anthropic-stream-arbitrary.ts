import fc from 'fast-check';

/** Test support: fast-check arbitraries of Anthropic Messages SSE bodies, valid and mutated. */

type Event = Record<string, unknown>;

const text = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'grapheme', maxLength: 8 }),
  fc.constantFrom('', 'é', '日本語', '👋🏽', '\n', '\r\n', 'data: x', '\u2028', '"}'),
);

const messageStart = (id: string): Event => ({
  type: 'message_start',
  message: { id, type: 'message', role: 'assistant', model: 'claude-x', content: [], usage: { input_tokens: 12, cache_creation_input_tokens: 0, cache_read_input_tokens: 3, output_tokens: 1, service_tier: 'standard' } },
});

const textBlock = (index: number) =>
  fc.array(text, { maxLength: 5 }).map((pieces): Event[] => [
    { type: 'content_block_start', index, content_block: { type: 'text', text: '' } },
    ...pieces.map((t) => ({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: t } })),
    { type: 'content_block_stop', index },
  ]);

const toolBlock = (index: number) =>
  fc
    .tuple(fc.constantFrom('weather', 'bash_code_execution', 'lookup'), fc.option(fc.constantFrom('computer'), { nil: undefined }), fc.jsonValue({ maxDepth: 2 }), fc.integer({ min: 1, max: 4 }))
    .map(([name, toolset, input, parts]): Event[] => {
      const json = JSON.stringify({ value: input });
      const size = Math.ceil(json.length / parts);
      const pieces = ['', ...Array.from({ length: parts }, (_, i) => json.slice(i * size, (i + 1) * size))];
      return [
        { type: 'content_block_start', index, content_block: { type: 'tool_use', id: `toolu_${index}`, name, input: {}, ...(toolset ? { toolset_name: toolset } : {}) } },
        ...pieces.map((p) => ({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: p } })),
        { type: 'content_block_stop', index },
      ];
    });

const thinkingBlock = (index: number) =>
  fc.tuple(fc.array(text, { maxLength: 3 }), fc.boolean()).map(([pieces, redacted]): Event[] =>
    redacted
      ? [{ type: 'content_block_start', index, content_block: { type: 'redacted_thinking', data: 'abc' } }, { type: 'content_block_stop', index }]
      : [
          { type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '' } },
          ...pieces.map((t) => ({ type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking: t } })),
          { type: 'content_block_delta', index, delta: { type: 'signature_delta', signature: 'sig' } },
          { type: 'content_block_stop', index },
        ],
  );

const messageDelta = fc
  .tuple(
    fc.constantFrom('end_turn', 'tool_use', 'max_tokens', 'stop_sequence', 'refusal', 'pause_turn', 'compaction', 'other', null),
    fc.option(fc.constantFrom('STOP'), { nil: null }),
    fc.boolean(),
    fc.boolean(),
    fc.boolean(),
  )
  .map(([stop_reason, stop_sequence, withInput, withIterations, withDetails]): Event => ({
    type: 'message_delta',
    delta: { stop_reason, stop_sequence, ...(withDetails ? { stop_details: { type: 'refusal', category: 'cyber', explanation: null, extra: 1 } } : {}) },
    usage: {
      output_tokens: 42,
      ...(withInput ? { input_tokens: 99, cache_read_input_tokens: 5 } : {}),
      ...(withIterations ? { iterations: [{ type: 'message', model: 'm', input_tokens: 3, output_tokens: 4, extra: true }, { type: 'advisor_message', input_tokens: 1, output_tokens: 2 }] } : {}),
      server_tool_use: { web_search_requests: 0 },
    },
  }));

/** A well-formed answer: message_start, blocks, ping here and there, message_delta, message_stop. */
export const validEvents: fc.Arbitrary<Event[]> = fc
  .tuple(fc.array(fc.constantFrom('text', 'tool', 'thinking'), { minLength: 0, maxLength: 4 }), messageDelta, fc.boolean())
  .chain(([kinds, delta, ping]) =>
    fc.tuple(...kinds.map((k, i) => (k === 'text' ? textBlock(i) : k === 'tool' ? toolBlock(i) : thinkingBlock(i)))).map((blocks) => [
      messageStart('msg_1'),
      ...(ping ? [{ type: 'ping' }] : []),
      ...blocks.flat(),
      delta,
      { type: 'message_stop' },
    ]),
  );

/** Events that are valid, invalid, unknown or of a kind the fast path does not read. */
const oddEvent: fc.Arbitrary<Event | string> = fc.constantFrom<Event | string>(
  { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded', extra: 1 } },
  { type: 'error', error: { type: 'api_error', message: 'boom' } },
  { type: 'error', error: { message: 'no type' } },
  { type: 'ping', extra: [1] },
  { type: 'mystery' },
  { type: 'content_block_start', index: 7, content_block: { type: 'mystery_block' } },
  { type: 'content_block_start', index: 7, content_block: { type: 'server_tool_use', id: 'srv_1', name: 'web_search', input: {} } },
  { type: 'content_block_start', index: 7, content_block: { type: 'fallback' } },
  { type: 'content_block_start', index: '7', content_block: { type: 'text', text: '' } },
  { type: 'content_block_start', index: 0, content_block: { type: 'text', text: 5 } },
  { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: '' } },
  { type: 'content_block_delta', index: 0, delta: { type: 'text_delta' } },
  { type: 'content_block_delta', index: 0, delta: { type: 'citations_delta', citation: { type: 'char_location' } } },
  { type: 'content_block_delta', index: 0, delta: { type: 'mystery_delta' } },
  { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '' } },
  { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"a":' } },
  { type: 'content_block_stop', index: 3 },
  { type: 'content_block_stop' },
  { type: 'message_start', message: { id: 'msg_2', usage: { input_tokens: 1 } } },
  { type: 'message_start', message: { id: 'msg_1', usage: { input_tokens: 1 } } },
  { type: 'message_start', message: { usage: {} } },
  { type: 'message_delta', delta: {}, usage: {} },
  { type: 'message_delta', delta: { stop_reason: 'end_turn', container: { id: 'c', expires_at: 'x' } }, usage: { output_tokens: 1 } },
  { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 1, iterations: [{ type: 'bogus', input_tokens: 1, output_tokens: 1 }] } },
  { type: 'message_stop' },
  '{"type":"content_block_delta","index":0,"delta":{"type":"text_de',
  'not json',
  '[DONE]',
  'null',
  '[1,2]',
  '{"type":"ping","__proto__":{"x":1}}',
);

type Mutation = { at: number; kind: 'drop' | 'dup' | 'swap' | 'insert' | 'truncate'; odd: Event | string; cut: number };

const mutation: fc.Arbitrary<Mutation> = fc.record({
  at: fc.nat(),
  kind: fc.constantFrom('drop', 'dup', 'swap', 'insert', 'truncate'),
  odd: oddEvent,
  cut: fc.nat(),
});

/** Valid answers with up to 4 mutations: events dropped, duplicated, swapped, odd events inserted, JSON truncated. */
export const mutatedEvents: fc.Arbitrary<Array<Event | string>> = fc.tuple(validEvents, fc.array(mutation, { maxLength: 4 })).map(([events, mutations]) => {
  const out: Array<Event | string> = [...events];
  for (const m of mutations) {
    const i = m.at % (out.length + 1);
    if (m.kind === 'insert') out.splice(i, 0, m.odd);
    else if (out.length === 0) continue;
    else if (m.kind === 'drop') out.splice(i % out.length, 1);
    else if (m.kind === 'dup') out.splice(i % out.length, 0, out[i % out.length]!);
    else if (m.kind === 'swap' && out.length > 1) {
      const j = i % (out.length - 1);
      [out[j], out[j + 1]] = [out[j + 1]!, out[j]!];
    } else if (m.kind === 'truncate') {
      const json = typeof out[i % out.length] === 'string' ? (out[i % out.length] as string) : JSON.stringify(out[i % out.length]);
      out[i % out.length] = json.slice(0, m.cut % Math.max(1, json.length));
    }
  }
  return out;
});

export interface Framing {
  newline: '\n' | '\r\n' | '\r';
  eventLines: boolean;
  comments: boolean;
  splitData: boolean;
  noSpace: boolean;
  bom: boolean;
  /** Keep this fraction of the body's bytes (1: all; less: the body ends mid-stream). */
  keep: number;
}

export const framing: fc.Arbitrary<Framing> = fc.record({
  newline: fc.constantFrom<Framing['newline']>('\n', '\n', '\r\n', '\r'),
  eventLines: fc.boolean(),
  comments: fc.boolean(),
  splitData: fc.boolean(),
  noSpace: fc.boolean(),
  bom: fc.boolean(),
  keep: fc.oneof(fc.constant(1), fc.double({ min: 0, max: 1, noNaN: true })),
});

/** The SSE bytes of `events` framed as `f` says (several data lines join with \n, still the same JSON). */
export function sseBytes(events: ReadonlyArray<Event | string>, f: Framing): Uint8Array {
  const nl = f.newline;
  const data = f.noSpace ? 'data:' : 'data: ';
  const chunks = events.map((e) => {
    const json = typeof e === 'string' ? e : JSON.stringify(e);
    const type = typeof e === 'string' ? 'x' : String(e['type']);
    const lines = f.splitData && json.length > 2 && json.startsWith('{"') ? [json.slice(0, 1), json.slice(1)] : [json];
    return `${f.eventLines ? `event: ${type}${nl}` : ''}${f.comments ? `: keep-alive${nl}` : ''}${lines.map((l) => `${data}${l}${nl}`).join('')}${nl}`;
  });
  const bytes = new TextEncoder().encode(`${f.bom ? '\uFEFF' : ''}${chunks.join('')}`);
  return f.keep >= 1 ? bytes : bytes.slice(0, Math.floor(bytes.length * f.keep));
}
