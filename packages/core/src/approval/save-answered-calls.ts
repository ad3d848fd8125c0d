import { ChatwireError, type RecordAccess, type RecordData } from '@chatwire/storage';
import { AI_CHATS, AI_MESSAGES, AI_TURNS } from '../records/chat-collections.js';
import type { ApprovalDecision } from './approval-types.js';
import type { ApprovalTurnRow } from './last-turn-row.js';
import type { Turn } from '../turn/turn.js';
import type { TurnPlan } from '../turn/turn-plan.js';

export type AnsweredCallsSave = 'stored' | 'lost-lease' | 'chat-deleted';

/**
 * Stores the answered calls of a continued turn before its model is asked again, in one transaction while the
 * turn holds its chat: the assistant row with the calls' outputs, and the turn row with the decisions (who,
 * when, what) and without the pending step. From here on the calls are decided: a second answer is
 * APPROVAL_DECIDED, and their results stay even when the model's next step fails.
 */
export async function saveAnsweredCalls(access: RecordAccess, turn: Turn, plan: Extract<TurnPlan, { trigger: 'approval' }>): Promise<AnsweredCallsSave> {
  const decidedAt = new Date().toISOString();
  const answers = new Map(plan.answers.map((answer) => [answer.toolCallId, answer]));
  const decisions: ApprovalDecision[] = plan.pending.calls
    .filter((call) => call.needsApproval)
    .map((call) => {
      const { approved = false, reason } = answers.get(call.toolCallId) ?? {};
      return { toolCallId: call.toolCallId, toolName: call.toolName, approved, ...(reason ? { reason } : {}), userId: turn.caller.userId, decidedAt, by: 'approval' };
    });
  const { answer } = turn;
  return access.transaction(async (tx): Promise<AnsweredCallsSave> => {
    if (!(await tx.holdsLease(turn.lease))) return 'lost-lease';
    try {
      await tx.update(AI_CHATS, turn.chatId, {});
    } catch (error) {
      if (ChatwireError.is(error, 'NOT_FOUND')) return 'chat-deleted';
      throw error;
    }
    const row = await tx.find<ApprovalTurnRow>(AI_TURNS, turn.id);
    if (!row) return 'chat-deleted';
    await tx.update(AI_MESSAGES, turn.id, json({ content: answer.text(), parts: answer.parts, status: 'complete' }));
    await tx.update(
      AI_TURNS,
      turn.id,
      json({ pendingApproval: null, approvals: [...(row.data.approvals ?? []), ...decisions], toolCalls: answer.toolCalls(), finishReason: 'tool-calls' }),
    );
    return 'stored';
  });
}

function json<T extends RecordData>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
