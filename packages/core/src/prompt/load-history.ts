import { convertToModelMessages, type ModelMessage, type UIMessage } from 'ai';
import type { RecordAccess, RecordEnvelope } from '@chatwire/storage';
import { AI_MESSAGES, type MessageData } from '../records/chat-collections.js';
import { wireMessageId } from '../records/message-record-id.js';
import type { HistoryEntry } from '../compaction/compaction-types.js';
import { toolCallInput } from './provider-rules.js';
import { fileParts, userMessages } from '../attachments/file-reference.js';

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

/**
 * Stored rows to history entries: one entry per row, so compaction never splits a tool call from its result.
 * Entries carry the ids the client knows (a summary's `throughId` is one of them).
 */
export function historyEntries(rows: readonly RecordEnvelope<MessageData>[]): HistoryEntry[] {
  const entries: HistoryEntry[] = [];
  for (const row of rows) {
    const messages = rowToModelMessages(row.data);
    if (messages.length > 0) entries.push({ id: wireMessageId(row), messages });
  }
  return entries;
}

function rowToModelMessages(data: MessageData): ModelMessage[] {
  if (data.role === 'user') return userMessages(data.content, fileParts(data.parts));
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
