import type { PausedCall } from './approval-types.js';

/**
 * The decision at the point where a step's tools are scheduled: when any of the step's calls needs the user's
 * approval, none of them runs (the step stays one consistent step) and every one is returned, each marked
 * whether the user answers it; null when no call needs approval and all run now.
 */
export async function callsAwaitingApproval(
  calls: ReadonlyArray<{ toolCallId: string; toolName: string; input: unknown }>,
  needsApproval: (call: { toolCallId: string; toolName: string; input: unknown }) => Promise<boolean>,
): Promise<PausedCall[] | null> {
  const flags = await Promise.all(calls.map((call) => needsApproval(call)));
  if (!flags.includes(true)) return null;
  return calls.map((call, i) => ({ toolCallId: call.toolCallId, toolName: call.toolName, input: call.input, needsApproval: flags[i]! }));
}
