// The approval types an app may name: a custom tool's `needsApproval` rule and its context, and what a paused
// turn keeps (pending calls) and stores (the answers and decisions). Exported from core as `approval.*`.
export type { ApprovalCallContext, NeedsApproval } from './approval-rule.js';
export type { ApprovalAnswer, ApprovalDecision, PendingApproval } from './approval-types.js';
