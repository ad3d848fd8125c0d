import type { ModelMessage } from 'ai';
import { compactStepMessages } from '../compaction/index.js';
import type { CompactionConfig } from '../compaction/compaction-types.js';
import { sanitizeStepMessages } from '../prompt/provider-rules.js';

/** A turn makes at most this many model calls; each is a full round trip, tool results included. */
export const MAX_TOOL_STEPS = 5;

export interface StepPolicy {
  maxSteps: number;
  /** What a step after the first is sent (undefined for the first: its prompt was prepared before the turn). */
  prepareStep(step: { stepNumber: number; messages: ModelMessage[] }): { messages: ModelMessage[]; toolChoice?: 'none' } | undefined;
}

/**
 * The one place that decides what each model step of a turn gets:
 * - at most `MAX_TOOL_STEPS` steps;
 * - from the second step on, the messages of earlier steps are made acceptable to every provider and
 *   compacted to the context budget (tool results grow the prompt inside one turn);
 * - the last allowed step is offered no tool (`toolChoice: 'none'`), so a turn that reaches the cap still
 *   ends with an answer rather than a dangling tool call.
 */
export function stepPolicy(compaction: CompactionConfig): StepPolicy {
  return {
    maxSteps: MAX_TOOL_STEPS,
    prepareStep: ({ stepNumber, messages }) => {
      if (stepNumber === 0) return undefined;
      const step = compactStepMessages(sanitizeStepMessages(messages), compaction);
      return stepNumber >= MAX_TOOL_STEPS - 1 ? { messages: step.messages, toolChoice: 'none' as const } : { messages: step.messages };
    },
  };
}
