import type { ApprovalAnswer } from '../approval/approval-types.js';

export const TURN_TRIGGERS = ['submit', 'edit', 'regenerate', 'approval'] as const;
export type TurnTrigger = (typeof TURN_TRIGGERS)[number];

/**
 * The body of `POST /chat`. `submit` (default) and `edit` carry `userMessageId` and `content`; `regenerate`
 * carries no `content` and an optional `userMessageId` (default: the chat's last user message); `approval`
 * carries `approvals`, one answer for each call the chat's last turn waits on.
 */
export interface TurnInput {
  chatId: string;
  trigger: TurnTrigger;
  userMessageId?: string | undefined;
  content?: string | undefined;
  modelId?: string | undefined;
  approvals?: ApprovalAnswer[] | undefined;
  /** A submit's attachments (ids of `POST /attachments`, in order). */
  attachmentIds?: string[] | undefined;
}
