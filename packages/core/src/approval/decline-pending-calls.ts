import type { Caller, RecordAccess, TurnLease } from '@chatwire/storage';
import { AI_MESSAGES, AI_TURNS, type MessageData } from '../records/chat-collections.js';
import { declinedOutput, type ApprovalDecision } from './approval-types.js';
import { lastTurnRow } from './last-turn-row.js';

export const DECLINED_BY_NEW_MESSAGE = 'The user sent a new message instead of answering.';

/**
 * A new message while the chat's last turn waits for approvals declines its calls (every call of the paused
 * step: none of them ran), so the history the next turn answers shows them declined to the model: the tool
 * parts get the declined output, the assistant row becomes `complete`, and the turn row keeps the decisions
 * and drops the pending step. One transaction, written only while `lease` is held. Nothing pending: no write.
 */
export async function declinePendingCalls(server: RecordAccess, caller: Caller, chatId: string, lease: TurnLease): Promise<void> {
  const row = await lastTurnRow(server, chatId);
  const pending = row?.data.pendingApproval;
  if (!row || !pending) return;
  const output = declinedOutput(DECLINED_BY_NEW_MESSAGE);
  await server.transaction(async (tx) => {
    if (!(await tx.holdsLease(lease))) return;
    const message = await tx.find<MessageData>(AI_MESSAGES, row.data.assistantMessageId);
    if (message) {
      const parts = withOutputs(message.data.parts ?? [], new Map(pending.calls.map((call) => [call.toolCallId, output])));
      await tx.update(AI_MESSAGES, message.recordId, { parts, status: 'complete' });
    }
    const decidedAt = new Date().toISOString();
    const decisions: ApprovalDecision[] = pending.calls
      .filter((call) => call.needsApproval)
      .map((call) => ({ toolCallId: call.toolCallId, toolName: call.toolName, approved: false, reason: DECLINED_BY_NEW_MESSAGE, userId: caller.userId, decidedAt, by: 'submit' }));
    await tx.update(AI_TURNS, row.recordId, { pendingApproval: null, approvals: [...(row.data.approvals ?? []), ...decisions] });
  });
}

/** Stored parts with each named call's tool part (still waiting for its output) given that output. */
export function withOutputs(parts: readonly unknown[], outputs: ReadonlyMap<string, unknown>): unknown[] {
  return parts.map((raw) => {
    const part = raw as Record<string, unknown>;
    if (typeof part?.toolCallId !== 'string' || part.state !== 'input-available' || !outputs.has(part.toolCallId)) return part;
    return { ...part, state: 'output-available', output: outputs.get(part.toolCallId) };
  });
}
