import type { LanguageModelUsage, ModelMessage } from 'ai';
import type { StepContentPart } from '../model-loop/step-content.js';

/** One tool call of a paused step: `needsApproval` when the user must answer it, else it waits for the others. */
export interface PausedCall {
  toolCallId: string;
  toolName: string;
  input: unknown;
  needsApproval: boolean;
}

/**
 * What a turn paused for approval keeps in its turn row (`pendingApproval`): everything the continuation
 * needs to rebuild the paused step without trusting the client. `added`: the messages earlier steps of the
 * turn added to the prompt; `content`: the paused step's content (text, tool calls, failed calls); `calls`:
 * the calls that have not run; `steps` and `usage`: what the turn used so far (the step cap counts the turn).
 */
export interface PendingApproval {
  added: ModelMessage[];
  content: StepContentPart[];
  calls: PausedCall[];
  steps: number;
  usage: LanguageModelUsage;
}

/** One answer of `POST /chat` with `trigger: "approval"`. */
export interface ApprovalAnswer {
  toolCallId: string;
  approved: boolean;
  reason?: string | undefined;
}

/** A stored decision (turn row `approvals`): what was answered, by whom and when. */
export interface ApprovalDecision extends ApprovalAnswer {
  toolName: string;
  /** The user who answered; `submit` decisions are made by sending a new message while calls were pending. */
  userId: string;
  decidedAt: string;
  by: 'approval' | 'submit';
}

/** The chunk type that asks the client for a decision. */
export const TOOL_APPROVAL_CHUNK = 'data-tool-approval';

/** The output a declined call gives the client and the model. */
export function declinedOutput(reason: string | undefined): { declined: true; message: string; reason?: string } {
  const message = 'The user declined this tool call; it did not run.';
  return reason ? { declined: true, message, reason } : { declined: true, message };
}
