import { JSONParseError, TypeValidationError } from '@ai-sdk/provider';
import { secureJsonParse } from '@ai-sdk/provider-utils';

/** An Anthropic Messages stream event as @ai-sdk/anthropic@2's chunk schema outputs it (the fields read). */
export type AnthropicEvent =
  | { type: 'ping' | 'message_stop' }
  | { type: 'message_start'; message: { id?: string | null; model?: string | null; usage: AnthropicUsage } }
  | { type: 'content_block_start'; index: number; content_block: ContentBlock }
  | { type: 'content_block_delta'; index: number; delta: Delta }
  | { type: 'content_block_stop'; index: number }
  | { type: 'error'; error: { type: string; message: string } }
  | { type: 'message_delta'; delta: MessageDelta; usage: AnthropicUsage };

export type ContentBlock =
  | { type: 'text' }
  | { type: 'thinking' }
  | { type: 'redacted_thinking'; data: string }
  | { type: 'tool_use'; id: string; name: string; toolset_name?: string | null }
  | { type: 'fallback' };

export type Delta =
  | { type: 'text_delta'; text: string }
  | { type: 'input_json_delta'; partial_json: string }
  | { type: 'thinking_delta'; thinking: string }
  | { type: 'signature_delta'; signature: string };

export interface MessageDelta {
  stop_reason?: string | null;
  stop_sequence?: string | null;
  stop_details?: { type: string; category?: string | null; explanation?: string | null; recommended_model?: string | null } | null;
}

export interface AnthropicIteration {
  type: string;
  model?: string | null;
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
}

/** A usage object: the known fields checked, any other field kept as it came (the schema's `looseObject`). */
export type AnthropicUsage = Record<string, unknown> & {
  input_tokens?: number | null;
  output_tokens?: number;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  iterations?: AnthropicIteration[] | null;
};

/**
 * What one event's data is: `event` (valid and handled), `invalid` (not JSON, or not what the package's
 * schema accepts: the package emits an `error` part for it) or `unhandled` (valid for the package, but of a
 * block, delta or field the fast path does not parse: server tools, citations, compaction, containers,
 * context management).
 */
export type ParsedEvent =
  | { kind: 'event'; event: AnthropicEvent }
  | { kind: 'invalid'; error: Error }
  | { kind: 'unhandled'; value: unknown; what: string };

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const isString = (v: unknown): v is string => typeof v === 'string';
const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const nullishString = (v: unknown): boolean => v === undefined || v === null || typeof v === 'string';
const nullishNumber = (v: unknown): boolean => v === undefined || v === null || isNumber(v);

const UNHANDLED_BLOCKS = new Set([
  'compaction',
  'server_tool_use',
  'web_fetch_tool_result',
  'web_search_tool_result',
  'code_execution_tool_result',
  'bash_code_execution_tool_result',
  'text_editor_code_execution_tool_result',
]);
const UNHANDLED_DELTAS = new Set(['compaction_delta', 'citations_delta']);
const ITERATION_TYPES = new Set(['compaction', 'message', 'advisor_message', 'fallback_message']);

/**
 * Parses one event's data as @ai-sdk/anthropic@2 does (`secureJsonParse`, then its chunk schema): the same
 * data is valid or invalid for both, and a valid event comes out as the schema outputs it (unknown fields of
 * closed objects dropped, those of the usage objects kept).
 */
export function parseAnthropicEvent(text: string): ParsedEvent {
  let value: unknown;
  try {
    value = secureJsonParse(text);
  } catch (cause) {
    return { kind: 'invalid', error: new JSONParseError({ text, cause }) };
  }
  const problem = check(value);
  if (problem === null) return { kind: 'event', event: output(value as Json) };
  if (problem.startsWith('unhandled ')) return { kind: 'unhandled', value, what: problem.slice(10) };
  return { kind: 'invalid', error: new TypeValidationError({ value, cause: new Error(problem) }) };
}

/** null when valid and handled; `unhandled <what>`; otherwise why the schema rejects it. */
function check(value: unknown): string | null {
  if (!isObject(value)) return 'not an object';
  switch (value['type']) {
    case 'ping':
    case 'message_stop':
      return null;
    case 'message_start': {
      const message = value['message'];
      if (!isObject(message) || !nullishString(message['id']) || !nullishString(message['model'])) return 'message_start.message';
      const usage = message['usage'];
      if (!isObject(usage) || !isNumber(usage['input_tokens']) || !nullishNumber(usage['cache_creation_input_tokens']) || !nullishNumber(usage['cache_read_input_tokens'])) {
        return 'message_start.message.usage';
      }
      return null;
    }
    case 'content_block_start': {
      const block = value['content_block'];
      if (!isNumber(value['index']) || !isObject(block)) return 'content_block_start';
      const type = block['type'];
      switch (type) {
        case 'text':
          return isString(block['text']) ? null : 'text block';
        case 'thinking':
          return isString(block['thinking']) ? null : 'thinking block';
        case 'redacted_thinking':
          return isString(block['data']) ? null : 'redacted_thinking block';
        case 'tool_use':
          return isString(block['id']) && isString(block['name']) && nullishString(block['toolset_name']) ? null : 'tool_use block';
        case 'fallback':
          return null;
        default:
          return typeof type === 'string' && UNHANDLED_BLOCKS.has(type) ? `unhandled ${type} block` : 'content block type';
      }
    }
    case 'content_block_delta': {
      const delta = value['delta'];
      if (!isNumber(value['index']) || !isObject(delta)) return 'content_block_delta';
      const type = delta['type'];
      switch (type) {
        case 'text_delta':
          return isString(delta['text']) ? null : 'text_delta';
        case 'input_json_delta':
          return isString(delta['partial_json']) ? null : 'input_json_delta';
        case 'thinking_delta':
          return isString(delta['thinking']) ? null : 'thinking_delta';
        case 'signature_delta':
          return isString(delta['signature']) ? null : 'signature_delta';
        default:
          return typeof type === 'string' && UNHANDLED_DELTAS.has(type) ? `unhandled ${type}` : 'delta type';
      }
    }
    case 'content_block_stop':
      return isNumber(value['index']) ? null : 'content_block_stop';
    case 'error': {
      const error = value['error'];
      return isObject(error) && isString(error['type']) && isString(error['message']) ? null : 'error';
    }
    case 'message_delta':
      return checkMessageDelta(value);
    default:
      return 'event type';
  }
}

function checkMessageDelta(value: Json): string | null {
  const delta = value['delta'];
  if (!isObject(delta) || !nullishString(delta['stop_reason']) || !nullishString(delta['stop_sequence'])) return 'message_delta.delta';
  const details = delta['stop_details'];
  if (details !== undefined && details !== null) {
    if (!isObject(details) || !isString(details['type']) || !nullishString(details['category']) || !nullishString(details['explanation']) || !nullishString(details['recommended_model'])) {
      return 'message_delta.delta.stop_details';
    }
  }
  const usage = value['usage'];
  if (
    !isObject(usage) ||
    !nullishNumber(usage['input_tokens']) ||
    !isNumber(usage['output_tokens']) ||
    !nullishNumber(usage['cache_creation_input_tokens']) ||
    !nullishNumber(usage['cache_read_input_tokens'])
  ) {
    return 'message_delta.usage';
  }
  const iterations = usage['iterations'];
  if (iterations !== undefined && iterations !== null) {
    if (!Array.isArray(iterations)) return 'message_delta.usage.iterations';
    for (const it of iterations) {
      if (
        !isObject(it) ||
        !ITERATION_TYPES.has(it['type'] as string) ||
        !nullishString(it['model']) ||
        !isNumber(it['input_tokens']) ||
        !isNumber(it['output_tokens']) ||
        !nullishNumber(it['cache_creation_input_tokens']) ||
        !nullishNumber(it['cache_read_input_tokens'])
      ) {
        return 'message_delta.usage.iterations';
      }
    }
  }
  // Checked last, so that an event invalid elsewhere is invalid here too.
  const container = delta['container'];
  if (container !== undefined && container !== null) return 'unhandled message_delta.delta.container';
  const management = value['context_management'];
  if (management !== undefined && management !== null) return 'unhandled message_delta.context_management';
  return null;
}

/** The schema's output of a valid event: closed objects keep only their known fields. */
function output(value: Json): AnthropicEvent {
  if (value['type'] === 'error') {
    const error = value['error'] as Json;
    return { type: 'error', error: { type: error['type'] as string, message: error['message'] as string } };
  }
  if (value['type'] === 'message_delta') {
    const usage = value['usage'] as Json;
    const iterations = usage['iterations'];
    if (Array.isArray(iterations)) {
      return { ...(value as AnthropicEvent & Json), usage: { ...usage, iterations: iterations.map(stripIteration) } } as AnthropicEvent;
    }
  }
  return value as unknown as AnthropicEvent;
}

function stripIteration(it: Json): AnthropicIteration {
  const out: Record<string, unknown> = { type: it['type'] };
  for (const key of ['model', 'input_tokens', 'output_tokens', 'cache_creation_input_tokens', 'cache_read_input_tokens']) {
    if (key in it) out[key] = it[key];
  }
  return out as unknown as AnthropicIteration;
}
