import { readBranchPosition, type BranchPosition } from './branch-position.js';

/**
 * Non-spec extension, tree history: the `start` chunk's `messageMetadata` places the new assistant message
 * among its siblings (`branch`) and, for an edit, names the new user message the server stored in place of
 * the edited one (`userMessage`: its id and position), so a switcher updates without a refetch.
 */
export interface BranchAction {
  type: 'branch';
  branch: BranchPosition;
  userMessage?: { id: string; branch: BranchPosition };
}

/** The `branch` action of a `start` chunk's metadata, or undefined (a linear chat's `start`). */
export function branchActionOf(metadata: unknown): BranchAction | undefined {
  if (typeof metadata !== 'object' || metadata === null) return undefined;
  const m = metadata as { branch?: unknown; userMessage?: { id?: unknown; branch?: unknown } };
  const branch = readBranchPosition(m.branch);
  if (!branch) return undefined;
  const userBranch = readBranchPosition(m.userMessage?.branch);
  const userId = m.userMessage?.id;
  return userBranch && typeof userId === 'string' ? { type: 'branch', branch, userMessage: { id: userId, branch: userBranch } } : { type: 'branch', branch };
}
