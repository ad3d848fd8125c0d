import type { AssistantMessage } from './assistant-message.js';
import type { MessageRecord, MessageRole, MessageStatus } from './route-types.js';

/** One row for rendering a conversation. */
export interface ChatMessage {
  id: string;
  role: MessageRole;
  /** Stored content; for the in-flight assistant message, its text so far. */
  content: string;
  /** Stored UI parts (tool invocations), when the row has them. */
  parts?: unknown[];
  createdAt?: string;
  /**
   * Stored assistant rows: `'stopped'` when the stop route ended the answer, else `'complete'`. The in-flight
   * assistant message: `'stopped'` once the reducer saw `stop`, else absent (see `streaming.status`).
   */
  status?: MessageStatus;
  /** `true` for rows that are not stored yet (the pending user message and the streaming assistant). */
  pending: boolean;
  /** The live reducer state of the in-flight assistant message (text parts, tool calls, status). */
  streaming?: AssistantMessage;
}

/** A turn the client has sent and may still be streaming. */
export interface PendingTurn {
  userMessageId: string;
  content: string;
  /** The reducer state; its `id` is the `X-Asst-Id` of the turn. */
  assistant?: AssistantMessage;
}

/**
 * Stored rows (from `getChat`) plus turns in flight, without showing a message twice: the user row is
 * stored under `userMessageId` and the assistant row under `X-Asst-Id`, so a pending message whose id is
 * already stored is dropped (the stored row wins: it is final). A streaming assistant message goes right
 * after its user message. Pure: the inputs are not modified.
 */
export function mergeMessages(
  stored: readonly MessageRecord[],
  pending?: PendingTurn | readonly PendingTurn[] | null,
): ChatMessage[] {
  const out: ChatMessage[] = stored.map(fromRecord);
  const turns = pending == null ? [] : Array.isArray(pending) ? (pending as readonly PendingTurn[]) : [pending as PendingTurn];
  if (turns.length === 0) return out;
  const ids = new Set(stored.map((m) => m.recordId));
  for (const turn of turns) {
    if (!ids.has(turn.userMessageId)) {
      out.push({ id: turn.userMessageId, role: 'user', content: turn.content, pending: true });
      ids.add(turn.userMessageId);
    }
    const assistant = turn.assistant;
    if (!assistant || (assistant.id !== undefined && ids.has(assistant.id))) continue;
    const row: ChatMessage = {
      id: assistant.id ?? `${turn.userMessageId}:assistant`,
      role: 'assistant',
      content: assistant.text,
      pending: true,
      streaming: assistant,
    };
    if (assistant.status === 'stopped') row.status = 'stopped';
    const userIndex = out.findIndex((m) => m.id === turn.userMessageId);
    out.splice(userIndex + 1, 0, row);
    ids.add(row.id);
  }
  return out;
}

function fromRecord(record: MessageRecord): ChatMessage {
  const message: ChatMessage = {
    id: record.recordId,
    role: record.data.role,
    content: record.data.content,
    createdAt: record.createdAt,
    pending: false,
  };
  if (record.data.parts !== undefined) message.parts = record.data.parts;
  if (record.data.role === 'assistant') message.status = record.data.status === 'stopped' ? 'stopped' : 'complete';
  return message;
}
