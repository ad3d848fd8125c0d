import { convertToModelMessages, type ModelMessage, type UIMessage } from 'ai';
import type { RecordAccess, RecordEnvelope } from '@chatwire/storage';
import { AI_MESSAGES, AI_TURNS, type MessageData } from '../chat/chat-collections.js';
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
 * Drops empty and whitespace-only text parts (Anthropic rejects both as text blocks) and gives every tool call an object input:
 * a call whose input failed to parse is replayed as `{}` with its error, since providers reject a
 * tool_use input that is not an object.
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
    } else if (typeof part.type === 'string' && part.type.startsWith('tool-')) {
      const input = part.input;
      const objectInput = typeof input === 'object' && input !== null && !Array.isArray(input) ? input : {};
      const { rawInput: _raw, ...rest } = part;
      out.push({ ...rest, input: objectInput });
    }
  }
  return out as UIMessage['parts'];
}

/**
 * The same rules inside the tool loop, for the SDK's own messages of earlier steps: a tool call whose input
 * is not an object is resent as `{}`, and a whitespace-only text block next to a tool call (a common lead-in)
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
    const content = message.content.flatMap((part): Part[] => {
      if (!keepBlank && blank(part)) {
        touched = true;
        return [];
      }
      if (part.type !== 'tool-call') return [part];
      const input = part.input;
      if (typeof input === 'object' && input !== null && !Array.isArray(input)) return [part];
      touched = true;
      return [{ ...part, input: {} }];
    });
    if (!touched) return message;
    changed = true;
    return { ...message, content };
  });
  return changed ? out : messages;
}
