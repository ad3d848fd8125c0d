import type { PrepareStepFunction, ToolSet } from 'ai';
import { ChatwireError } from '@chatwire/storage';

/** A turn makes at most this many model calls (spec 8.1: `stopWhen: stepCountIs(MAX_TOOL_STEPS)`). */
export const MAX_TOOL_STEPS = 5;

/**
 * A `prepareStep` for `streamText` that sets `toolChoice: 'none'` on the last allowed step
 * (`stepNumber === maxSteps - 1`; step numbers start at 0), so a model that keeps calling tools
 * must end the turn with a text answer instead of being cut off after a tool result.
 *
 * ```ts
 * streamText({ model, tools, stopWhen: stepCountIs(MAX_TOOL_STEPS), prepareStep: finalStepWithoutTools(MAX_TOOL_STEPS) })
 * ```
 */
export function finalStepWithoutTools<TOOLS extends ToolSet = ToolSet>(
  maxSteps: number = MAX_TOOL_STEPS,
): PrepareStepFunction<TOOLS> {
  if (!Number.isInteger(maxSteps) || maxSteps < 1) {
    throw new ChatwireError('CONFIGURATION', `finalStepWithoutTools: maxSteps must be an integer >= 1, got ${String(maxSteps)}`);
  }
  return ({ stepNumber }) => (stepNumber >= maxSteps - 1 ? { toolChoice: 'none' } : undefined);
}
