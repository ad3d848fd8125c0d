import type { RecordEnvelope } from '@chatwire/storage';
import type { MessageData } from '../records/chat-collections.js';
import { wireMessageId } from '../records/message-record-id.js';
import type { SharedMessage } from '../records/share-collection.js';

/** A part of a shared message: text as written, a tool call by its name only. */
export type SharedPart = { type: 'text'; text: string } | { type: 'tool'; toolName: string };

/**
 * The copy of a chat's messages a share keeps: each message's id, role, text and creation time, and its
 * parts reduced to text and the names of the tools it called. Tool inputs and outputs are never copied
 * (tools act on the owner's own records), nor files, nor anything else a part may hold.
 */
export function freezeMessages(rows: readonly RecordEnvelope<MessageData>[]): SharedMessage[] {
  return rows.map((row) => {
    const parts = row.data.role === 'user' ? [{ type: 'text', text: row.data.content }] : sharedParts(row.data);
    return { id: wireMessageId(row), role: row.data.role, content: row.data.content, parts, createdAt: row.createdAt };
  });
}

function sharedParts(data: MessageData): SharedPart[] {
  if (!Array.isArray(data.parts)) return data.content ? [{ type: 'text', text: data.content }] : [];
  const parts: SharedPart[] = [];
  for (const part of data.parts) {
    if (typeof part !== 'object' || part === null) continue;
    const { type } = part as { type?: unknown };
    if (type === 'text') {
      const text = (part as { text?: unknown }).text;
      if (typeof text === 'string' && text.length > 0) parts.push({ type: 'text', text });
    } else if (type === 'dynamic-tool') {
      const name = (part as { toolName?: unknown }).toolName;
      if (typeof name === 'string') parts.push({ type: 'tool', toolName: name });
    } else if (typeof type === 'string' && type.startsWith('tool-')) {
      parts.push({ type: 'tool', toolName: type.slice('tool-'.length) });
    }
  }
  return parts;
}
