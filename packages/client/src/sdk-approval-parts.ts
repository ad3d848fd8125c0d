import type { UIMessage } from 'ai';
import { approvalRequestsOf } from './approval-answers.js';

type Part = UIMessage['parts'][number] & Record<string, unknown>;

/**
 * A stored paused message as an AI SDK 6/7 `Chat` would have it live with `approvalChunks: 'sdk'`: the tool
 * part of each call its latest step asks about (a `data-tool-approval` part) that is still `input-available`
 * becomes `approval-requested` with `approval: { id: toolCallId }`, so `addToolApprovalResponse` can answer it
 * after a reload. Other messages are returned as they are; the input is not modified.
 */
export function withApprovalRequested<M extends UIMessage>(message: M): M {
  const asked = new Set(approvalRequestsOf(message).map((request) => request.toolCallId));
  if (asked.size === 0) return message;
  const parts = (message.parts as Part[]).map((part) =>
    typeof part.toolCallId === 'string' && asked.has(part.toolCallId) && part.state === 'input-available' && (part.type === 'dynamic-tool' || part.type.startsWith('tool-'))
      ? { ...part, state: 'approval-requested', approval: { id: part.toolCallId } }
      : part,
  );
  return { ...message, parts: parts as M['parts'] };
}
