import type {
  JSONValue,
  LanguageModelV2CallOptions,
  LanguageModelV2Message,
  LanguageModelV2ToolResultPart,
} from '@ai-sdk/provider';

/** What the demo model answers for one call: plain text, or one call of an offered tool. */
export type DemoReply =
  | { type: 'text'; text: string }
  | { type: 'tool-call'; toolCallId: string; toolName: string; input: Record<string, unknown> };

const MAX_MATCHED_CHARS = 2_000;
const LIST_NOTES = /\b(?:list|show|display|see|what are)\b[^.?!]*\bnotes?\b|\bmy notes\b/i;
const CREATE_NOTE = /\b(?:create|add|make)\s+(?:a\s+|an\s+|a\s+new\s+|new\s+)?note\s+(?:titled|called|named)\s+(.+)$/i;
const WHO_AM_I = /\bwho\s+am\s+i\b|\bwhat(?:'s|\s+is)\s+my\s+user\b|\bcurrent\s+user\b|\bmy\s+user\s*(?:name|id|record)?\b/i;

/**
 * Decides the demo model's answer from the prompt alone (deterministic): summarise a trailing tool result,
 * call a chat tool when the last user message asks for one of the supported things, or echo.
 */
export function planDemoReply(options: Pick<LanguageModelV2CallOptions, 'prompt' | 'tools' | 'toolChoice'>): DemoReply {
  const { prompt } = options;
  const last = prompt.at(-1);
  if (last?.role === 'tool') return { type: 'text', text: summarizeToolResults(last.content, prompt) };

  // Only the start of a message is matched: the patterns below are not meant for megabytes of text.
  const userText = lastUserText(prompt).slice(0, MAX_MATCHED_CHARS);
  const offered = new Set(
    options.toolChoice?.type === 'none' ? [] : (options.tools ?? []).filter((t) => t.type === 'function').map((t) => t.name),
  );
  const call = (toolName: string, input: Record<string, unknown>, missing: string): DemoReply =>
    offered.has(toolName)
      ? { type: 'tool-call', toolCallId: `call_demo_${countToolCalls(prompt) + 1}`, toolName, input }
      : { type: 'text', text: `I can't ${missing}: no tools are available to me in this chat.` };

  const create = CREATE_NOTE.exec(userText);
  if (create) {
    const title = cleanTitle(create[1] ?? '');
    return call('records_create', { collection: 'notes', data: { title, body: '' } }, `create the note "${title}"`);
  }
  if (LIST_NOTES.test(userText)) return call('records_query', { collection: 'notes' }, 'look at your notes');
  if (WHO_AM_I.test(userText)) return call('user_current', {}, 'look up your user');

  const quoted = userText.length > 200 ? `${userText.slice(0, 200)}...` : userText;
  return {
    type: 'text',
    text: `You said: "${quoted}". I am the chatwire demo model, so I answer from a script; configure a provider for real answers.`,
  };
}

function lastUserText(prompt: LanguageModelV2Message[]): string {
  for (let i = prompt.length - 1; i >= 0; i -= 1) {
    const message = prompt[i]!;
    if (message.role !== 'user') continue;
    return message.content
      .map((part) => (part.type === 'text' ? part.text : ''))
      .join(' ')
      .replace(/\s+/g, ' ')
      .trim();
  }
  return '';
}

function countToolCalls(prompt: LanguageModelV2Message[]): number {
  let count = 0;
  for (const message of prompt) {
    if (message.role === 'assistant') count += message.content.filter((part) => part.type === 'tool-call').length;
  }
  return count;
}

function cleanTitle(raw: string): string {
  // A linear scan, not /[.!?]+$/: that regex backtracks quadratically on a long run of '!' not at the end.
  let text = raw.trim();
  let end = text.length;
  while (end > 0 && '.!?'.includes(text[end - 1]!)) end--;
  text = text.slice(0, end);
  const quoted = text.length >= 2 && `"'“‘`.includes(text[0]!) && `"'”’`.includes(text[text.length - 1]!);
  return (quoted ? text.slice(1, -1) : text).trim();
}

function summarizeToolResults(results: LanguageModelV2ToolResultPart[], prompt: LanguageModelV2Message[]): string {
  return results.map((result) => summarizeToolResult(result, findCallInput(prompt, result.toolCallId))).join(' ');
}

function findCallInput(prompt: LanguageModelV2Message[], toolCallId: string): Record<string, unknown> {
  for (const message of prompt) {
    if (message.role !== 'assistant') continue;
    for (const part of message.content) {
      if (part.type === 'tool-call' && part.toolCallId === toolCallId && isObject(part.input)) return part.input;
    }
  }
  return {};
}

function summarizeToolResult(result: LanguageModelV2ToolResultPart, input: Record<string, unknown>): string {
  const { output, toolName } = result;
  if (output.type === 'error-text') return `The ${toolName} tool failed: ${output.value}`;
  if (output.type === 'error-json') return `The ${toolName} tool failed: ${JSON.stringify(output.value)}`;
  const value: JSONValue = output.type === 'json' ? output.value : output.type === 'text' ? output.value : null;
  const collection = typeof input['collection'] === 'string' ? input['collection'] : 'records';

  if (toolName === 'records_query') {
    const rows = recordList(value);
    if (rows === undefined) return `The ${collection} query returned: ${preview(value)}`;
    if (rows.length === 0) return `You have no ${collection} yet.`;
    const noun = rows.length === 1 ? collection.replace(/s$/, '') : collection;
    return `You have ${rows.length} ${noun}: ${rows.map(recordLabel).join(', ')}.`;
  }
  if (toolName === 'records_create') {
    const data = isObject(input['data']) ? input['data'] : {};
    const title = recordTitle(value) ?? (typeof data['title'] === 'string' ? data['title'] : undefined);
    return title === undefined ? `Created a record in ${collection}.` : `Created ${collection.replace(/s$/, '')} "${title}".`;
  }
  if (toolName === 'user_current') {
    const who = isObject(value) ? firstString(value, ['userId', 'recordId', 'id', 'sub', 'email', 'name']) : undefined;
    return who === undefined ? `Your user record: ${preview(value)}` : `You are signed in as ${who}.`;
  }
  return `The ${toolName} tool returned: ${preview(value)}`;
}

function recordList(value: JSONValue): JSONValue[] | undefined {
  if (Array.isArray(value)) return value;
  if (!isObject(value)) return undefined;
  for (const key of ['records', 'items', 'rows', 'data', 'results']) {
    const candidate = value[key];
    if (Array.isArray(candidate)) return candidate as JSONValue[];
  }
  return undefined;
}

function recordLabel(row: JSONValue): string {
  return recordTitle(row) ?? (isObject(row) ? firstString(row, ['recordId', 'id']) : undefined) ?? preview(row);
}

function recordTitle(row: JSONValue): string | undefined {
  if (!isObject(row)) return undefined;
  const data = isObject(row['data']) ? row['data'] : row;
  return firstString(data, ['title', 'name']);
}

function firstString(value: Record<string, unknown>, keys: string[]): string | undefined {
  for (const key of keys) {
    const candidate = value[key];
    if (typeof candidate === 'string' && candidate !== '') return candidate;
  }
  return undefined;
}

function preview(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value) ?? String(value);
  return text.length > 160 ? `${text.slice(0, 160)}...` : text;
}

function isObject(value: unknown): value is Record<string, JSONValue> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
