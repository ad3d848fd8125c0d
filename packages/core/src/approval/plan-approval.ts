import { ChatwireError, type Caller, type RecordAccess } from '@chatwire/storage';
import type { ApprovalAnswer } from './approval-types.js';
import { lastTurnRow } from './last-turn-row.js';
import type { TurnPlan } from '../turn/turn-plan.js';

/**
 * Admission of `trigger: "approval"` (the caller owns the chat and holds its lease): the answers must name
 * exactly the calls the chat's last turn waits on, each once. A call id the model never made, or one of
 * another turn, is APPROVAL_NOT_FOUND (404, nothing runs); one that was answered already is APPROVAL_DECIDED
 * (409); a missing or repeated answer is VALIDATION (400). The pending calls come from the turn row, never
 * from the request: the client can only say yes or no.
 */
export async function planApproval(server: RecordAccess, caller: Caller, chatId: string, answers: readonly ApprovalAnswer[]): Promise<Extract<TurnPlan, { trigger: 'approval' }>> {
  const row = await lastTurnRow(server, chatId);
  const own = row !== null && row.data.userId === caller.userId ? row : null;
  const pending = own?.data.pendingApproval ?? null;
  const waiting = new Set((pending?.calls ?? []).filter((call) => call.needsApproval).map((call) => call.toolCallId));
  const decided = new Set((own?.data.approvals ?? []).map((decision) => decision.toolCallId));
  const answered = new Set<string>();
  for (const { toolCallId } of answers) {
    if (!waiting.has(toolCallId)) {
      if (decided.has(toolCallId)) throw new ChatwireError('APPROVAL_DECIDED', `Tool call '${toolCallId}' has been answered already`);
      throw new ChatwireError('APPROVAL_NOT_FOUND', `No tool call '${toolCallId}' waits for approval in this chat`);
    }
    if (answered.has(toolCallId)) {
      throw new ChatwireError('VALIDATION', `'approvals' answers tool call '${toolCallId}' twice`, { details: { field: 'approvals' } });
    }
    answered.add(toolCallId);
  }
  const missing = [...waiting].filter((id) => !answered.has(id));
  if (missing.length > 0) {
    throw new ChatwireError('VALIDATION', `'approvals' must answer every pending tool call; missing: ${missing.join(', ')}`, { details: { field: 'approvals' } });
  }
  return { trigger: 'approval', userMessageId: own!.data.userMessageId, turnId: own!.recordId, pending: pending!, answers: [...answers] };
}
