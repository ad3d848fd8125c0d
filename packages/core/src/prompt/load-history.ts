import { convertToModelMessages, type ModelMessage, type UIMessage } from 'ai';
import type { RecordAccess, RecordEnvelope } from '@chatwire/storage';
import { AI_MESSAGES, AI_TURNS, type MessageData } from '../records/chat-collections.js';
import type { ConversationSummary, HistoryEntry } from '../compaction/compaction-types.js';

const PAGE = 200;

/** Every stored message of a chat in insertion order (the store keeps a monotonic sequence). */
export async function loadChatMessages(access: RecordAccess, chatId: string): Promise<RecordEnvelope<MessageData>[]> {
  const rows: RecordEnvelope<MessageData>[] = [];
  let cursor: string | undefined;
  do {
    const page = await access.query<MessageData>(AI_MESSAGES, {
      filter: { chatId },
      orderBy: { field: 'createdAt', direction: 'asc' },
      limit: PAGE,
      ...(cursor ? { cursor } : {}),
    });
    rows.push(...page.records);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return rows;
}

/** The newest summary a previous turn of this chat produced (stored in its `ai-turns` row). */
export async function loadCachedSummary(access: RecordAccess, chatId: string): Promise<ConversationSummary | null> {
  const page = await access.query(AI_TURNS, {
    filter: { chatId, summary: { exists: true } },
    orderBy: { field: 'createdAt', direction: 'desc' },
    limit: 1,
  });
  const summary = page.records[0]?.data.summary as ConversationSummary | undefined;
  return summary && typeof summary.text === 'string' && typeof summary.throughId === 'string' ? summary : null;
}

/** Stored rows to history entries: one entry per row, so compaction never splits a tool call from its result. */
export function historyEntries(rows: readonly RecordEnvelope<MessageData>[]): HistoryEntry[] {
  const entries: HistoryEntry[] = [];
  for (const row of rows) {
    const messages = rowToModelMessages(row.data);
    if (messages.length > 0) entries.push({ id: row.recordId, messages });
  }
  return entries;
}

function rowToModelMessages(data: MessageData): ModelMessage[] {
  if (data.role === 'user') return data.content.length > 0 ? [{ role: 'user', content: data.content }] : [];
  const parts = Array.isArray(data.parts) ? sanitizeParts(data.parts) : [];
  if (parts.length === 0) return data.content.trim().length > 0 ? [{ role: 'assistant', content: data.content }] : [];
  return convertToModelMessages([{ role: 'assistant', parts } as Omit<UIMessage, 'id'>], { ignoreIncompleteToolCalls: true });
}

/**
 * Drops empty and whitespace-only text parts (Anthropic rejects both as text blocks) and gives every tool call
 * (`tool-<name>` and `dynamic-tool` parts) an object input by the rule of `toolCallInput`. A failed call
 * (`output-error`) is replayed with the input the model sent, as the AI SDK does (`input ?? rawInput`).
 *
 * A call the provider ran itself (`providerExecuted`: web search, code execution, file search, image
 * generation) is left out, call and result; the answer's text around it stays. Such a call belongs to the
 * provider that ran it and the chat may have moved to another model: a different provider rejects it or
 * cannot even convert it (both name their search tool `web_search`, with different result shapes), OpenAI
 * with storage off drops it anyway, and a call that failed at the provider cannot be rebuilt from its
 * stored error text (the call would go out without a result, which the Messages API rejects).
 */
function sanitizeParts(parts: unknown[]): UIMessage['parts'] {
  const out: Record<string, unknown>[] = [];
  for (const raw of parts) {
    if (typeof raw !== 'object' || raw === null) continue;
    const part = raw as Record<string, unknown>;
    if (part.type === 'text') {
      if (typeof part.text === 'string' && part.text.trim().length > 0) out.push({ type: 'text', text: part.text });
    } else if (part.type === 'step-start') {
      out.push(part);
    } else if (part.type === 'dynamic-tool' || (typeof part.type === 'string' && part.type.startsWith('tool-'))) {
      // A tool the provider ran itself (web search, code execution...) stays in the stored answer but not
      // in the prompt; see above.
      if (part.providerExecuted === true) continue;
      const { rawInput, ...rest } = part;
      const sent = part.state === 'output-error' ? (part.input ?? rawInput) : part.input;
      out.push({ ...rest, input: toolCallInput(sent) });
    }
  }
  return out as UIMessage['parts'];
}

/**
 * The input a tool call is replayed with. Providers reject a tool call whose input is not a JSON object
 * (Anthropic answers 400 "Input should be a valid dictionary"), while the AI SDK replays whatever the model
 * sent, even a raw string. The rule: an object is kept; a string holding a JSON object (input that was not
 * parsed) is parsed back; anything else (malformed JSON, an array, a number, null, nothing) becomes `{}`.
 * The call's error result still tells the model what was wrong.
 */
function toolCallInput(input: unknown): Record<string, unknown> {
  if (isPlainObject(input)) return input;
  if (typeof input === 'string') {
    try {
      const parsed: unknown = JSON.parse(input);
      if (isPlainObject(parsed)) return parsed;
    } catch {
      // Not JSON: replaced below.
    }
  }
  return {};
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The same rules inside the tool loop, for the SDK's own messages of earlier steps: a tool call's input
 * follows `toolCallInput` (the SDK resends a failed call's input as the model sent it, possibly a raw
 * string); a call the provider ran itself and that failed there is left out with its error result (the
 * provider packages drop such a result and would send the call alone); and a whitespace-only text block next to a tool call (a common lead-in)
 * is dropped, since providers reject blank text blocks.
 */
export function sanitizeStepMessages(messages: ModelMessage[]): ModelMessage[] {
  let changed = false;
  const out = messages.map((message) => {
    if (message.role !== 'assistant' || typeof message.content === 'string') return message;
    let touched = false;
    const blank = (part: (typeof message.content)[number]) => part.type === 'text' && part.text.trim() === '';
    const keepBlank = message.content.every(blank);
    type Part = (typeof message.content)[number];
    // Provider-executed calls whose result is an error: the provider packages cannot send that result back.
    const failedAtProvider = new Set(
      message.content.flatMap((part) => (part.type === 'tool-result' && part.output.type.startsWith('error') ? [part.toolCallId] : [])),
    );
    const content = message.content.flatMap((part): Part[] => {
      if (!keepBlank && blank(part)) {
        touched = true;
        return [];
      }
      if ((part.type === 'tool-call' || part.type === 'tool-result') && failedAtProvider.has(part.toolCallId)) {
        touched = true;
        return [];
      }
      if (part.type !== 'tool-call') return [part];
      if (isPlainObject(part.input)) return [part];
      touched = true;
      return [{ ...part, input: toolCallInput(part.input) }];
    });
    if (!touched) return message;
    changed = true;
    return { ...message, content };
  });
  return changed ? out : messages;
}
