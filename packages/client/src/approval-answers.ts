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

/** The app's answer to a call, as `addToolResult` / `addToolOutput` put it on the tool part: `{ approved, reason? }`. */
function answerOf(message: UIMessage, toolCallId: string): ApprovalAnswer | undefined {
  const part = (message.parts as Part[]).findLast((p) => p.toolCallId === toolCallId && (p.type === 'dynamic-tool' || p.type.startsWith('tool-')));
  if (!part || part.state !== 'output-available') return undefined;
  const output = part.output as { approved?: unknown; reason?: unknown } | null;
  if (typeof output !== 'object' || output === null || typeof output.approved !== 'boolean') return undefined;
  return typeof output.reason === 'string' && output.reason !== ''
    ? { toolCallId, approved: output.approved, reason: output.reason }
    : { toolCallId, approved: output.approved };
}

/**
 * The answers to every call the message asks about, or null while one is unanswered (or nothing is asked).
 * An answer is the tool part's output `{ approved: boolean, reason?: string }`, set by the app with
 * `addToolResult({ tool, toolCallId, output: { approved: true } })` (`addToolOutput` in ai@6/7).
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
