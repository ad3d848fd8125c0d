import type { RecordAccess, RecordEnvelope } from '@chatwire/storage';
import { AI_TURNS } from '../records/chat-collections.js';
import type { ApprovalDecision, PendingApproval } from './approval-types.js';

/** The fields of a turn row that approval reads. */
export interface ApprovalTurnRow extends Record<string, unknown> {
  userId: string;
  userMessageId: string;
  assistantMessageId: string;
  pendingApproval?: PendingApproval | null;
  approvals?: ApprovalDecision[];
}

/** The chat's newest turn row (the turn a pending approval belongs to), or null. */
export async function lastTurnRow(access: RecordAccess, chatId: string): Promise<RecordEnvelope<ApprovalTurnRow> | null> {
  const page = await access.query<ApprovalTurnRow>(AI_TURNS, { filter: { chatId }, orderBy: { field: 'createdAt', direction: 'desc' }, limit: 1 });
  return page.records[0] ?? null;
}
