import type { UIMessage } from 'ai';
import type { ApprovalAnswer } from './post-turn.js';

/** One tool call a paused turn asks the user about (a `data-tool-approval` part of the assistant message). */
export interface ApprovalRequest {
  toolCallId: string;
  toolName: string;
  input: unknown;
}

type Part = UIMessage['parts'][number] & Record<string, unknown>;

/**
 * The calls the message's latest step asks the user about: the `data-tool-approval` parts after its last
 * `step-start` (a continued turn's later steps start after them, so answered requests drop out).
 */
export function approvalRequestsOf(message: UIMessage | undefined): ApprovalRequest[] {
  if (!message || message.role !== 'assistant') return [];
  const parts = message.parts as Part[];
  let from = 0;
  for (let i = parts.length - 1; i >= 0; i--) {
    if (parts[i]!.type === 'step-start') {
      from = i;
      break;
    }
  }
  const out: ApprovalRequest[] = [];
  for (const part of parts.slice(from)) {
    if (part.type !== 'data-tool-approval') continue;
    const data = part.data as Partial<ApprovalRequest> | undefined;
    if (data && typeof data.toolCallId === 'string' && typeof data.toolName === 'string') out.push({ toolCallId: data.toolCallId, toolName: data.toolName, input: data.input });
  }
  return out;
}

/** The tool part of the message for `toolCallId` (the latest, when a call has several). */
function toolPartOf(message: UIMessage, toolCallId: string): Part | undefined {
  return (message.parts as Part[]).findLast((p) => p.toolCallId === toolCallId && (p.type === 'dynamic-tool' || p.type.startsWith('tool-')));
}

/**
 * The app's answer to a call: the tool part's output `{ approved, reason? }` set by `addToolResult` /
 * `addToolOutput`, or (AI SDK 6/7, transport option `approvalChunks: 'sdk'`) the part's `approval` set by
 * `addToolApprovalResponse` (state `approval-responded`).
 */
function answerOf(message: UIMessage, toolCallId: string): ApprovalAnswer | undefined {
  const part = toolPartOf(message, toolCallId);
  const answer =
    part?.state === 'output-available' ? part.output : part?.state === 'approval-responded' ? part.approval : undefined;
  const { approved, reason } = (answer ?? {}) as { approved?: unknown; reason?: unknown };
  if (typeof approved !== 'boolean') return undefined;
  return typeof reason === 'string' && reason !== '' ? { toolCallId, approved, reason } : { toolCallId, approved };
}

/** The calls of the message denied through `addToolApprovalResponse` (their parts are `approval-responded`). */
export function deniedApprovalResponsesOf(message: UIMessage): Set<string> {
  const denied = new Set<string>();
  for (const { toolCallId } of approvalRequestsOf(message)) {
    const part = toolPartOf(message, toolCallId);
    if (part?.state === 'approval-responded' && (part.approval as { approved?: unknown } | undefined)?.approved === false) denied.add(toolCallId);
  }
  return denied;
}

/**
 * The answers to every call the message asks about, or null while one is unanswered (or nothing is asked).
 * An answer is the tool part's output `{ approved: boolean, reason?: string }`, set by the app with
 * `addToolResult({ tool, toolCallId, output: { approved: true } })` (`addToolOutput` in ai@6/7), or, in
 * ai@6/7 with `approvalChunks: 'sdk'`, `addToolApprovalResponse({ id: part.approval.id, approved, reason })`.
 */
export function approvalAnswersOf(message: UIMessage | undefined): ApprovalAnswer[] | null {
  const requests = approvalRequestsOf(message);
  if (requests.length === 0) return null;
  const answers: ApprovalAnswer[] = [];
  for (const request of requests) {
    const answer = answerOf(message!, request.toolCallId);
    if (!answer) return null;
    answers.push(answer);
  }
  return answers;
}

/**
 * For `useChat({ sendAutomaticallyWhen: approvalsAnswered })`: true once the app answered every call the last
 * assistant message asks about; the chatwire transport then sends those answers (`trigger: "approval"`).
 */
export function approvalsAnswered({ messages }: { messages: readonly UIMessage[] }): boolean {
  return approvalAnswersOf(messages[messages.length - 1]) !== null;
}
