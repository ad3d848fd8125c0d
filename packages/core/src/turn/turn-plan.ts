import type { ApprovalAnswer, PendingApproval } from '../approval/approval-types.js';

import type { BranchPlacement } from '../branches/place-turn.js';
import type { FilePartData } from '../records/attachment-collection.js';

/**
 * What a turn does to the chat's history, decided at admission:
 * - `submit`: a new user message (`userMessageId`, `content`) and its answer are appended.
 * - `edit`: the stored user message `userMessageId` gets `content`; everything after it is replaced by the answer.
 * - `regenerate`: everything after the stored user message `userMessageId` is replaced by the answer.
 * - `approval`: the chat's last turn (`turnId`, answering `userMessageId`), paused for the user's approval,
 *   goes on in the same assistant message: the `answers` to its `pending` calls, then the model's next step.
 */
export type TurnPlan = TurnPlanBody & {
  /** A tree chat's turn: where its rows go (absent in a linear chat). */
  branch?: BranchPlacement;
  /** A submit's attachments, checked at admission: the file parts its user row stores. */
  attachments?: FilePartData[];
};

type TurnPlanBody =
  /** `recordId`: where the new user row is stored (see `records/message-record-id.ts`). */
  | { trigger: 'submit'; userMessageId: string; content: string; recordId: string }
  | { trigger: 'edit'; userMessageId: string; content: string }
  | { trigger: 'regenerate'; userMessageId: string }
  | { trigger: 'approval'; userMessageId: string; turnId: string; pending: PendingApproval; answers: ApprovalAnswer[] };

