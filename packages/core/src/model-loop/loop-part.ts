import type { TextStreamPart, ToolSet } from 'ai';
import type { PendingApproval } from '../approval/approval-types.js';

/**
 * The loop's last part when a step's calls wait for the user's approval: the step is over, none of its calls
 * ran, and `pending` is what a later continuation rebuilds the step from.
 */
export interface ApprovalPausePart {
  type: 'approval-pause';
  pending: PendingApproval;
}

/** One part of the loop's output: the same shapes as `streamText(...).fullStream`, and the approval pause. */
export type LoopPart = TextStreamPart<ToolSet> | ApprovalPausePart;

/** The loop part of one type. */
export type LoopPartOf<T extends LoopPart['type']> = Extract<LoopPart, { type: T }>;

/** Takes each part as it is produced; `false` ends the loop at once (the model call is cancelled). */
export type PartSink = (part: LoopPart) => boolean | void;
