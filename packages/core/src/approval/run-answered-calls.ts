import type { ModelMessage, ToolSet } from 'ai';
import { executeToolCall } from '../model-loop/execute-tool-call.js';
import type { LoopPart } from '../model-loop/loop-part.js';
import { parseToolCall } from '../model-loop/parse-tool-call.js';
import type { StepContentPart } from '../model-loop/step-content.js';
import { declinedOutput, type ApprovalAnswer, type PausedCall } from './approval-types.js';

type ResultContent = Extract<StepContentPart, { type: 'tool-result' | 'tool-error' }>;

/**
 * Runs the answered calls of a paused step, all at once, with this turn's tools (bound to the caller now, so
 * the caller's rights are checked at this moment): an approved call, and a call that needed no approval, runs
 * after its input is checked again against the tool; a declined call does not run and its output says so.
 * Each result is handed to `emit` as it comes. Waits for every call it started (a started call's result is
 * kept, even when the turn is interrupted meanwhile); returns null, having run nothing, when the turn was
 * interrupted before.
 */
export async function runAnsweredCalls(
  calls: readonly PausedCall[],
  answers: readonly ApprovalAnswer[],
  tools: ToolSet,
  context: { messages: ModelMessage[]; abortSignal: AbortSignal },
  emit: (part: LoopPart) => void,
): Promise<ResultContent[] | null> {
  if (context.abortSignal.aborted) return null;
  const byId = new Map(answers.map((answer) => [answer.toolCallId, answer]));
  const results = await Promise.all(
    calls.map(async (paused): Promise<ResultContent> => {
      const answer = byId.get(paused.toolCallId);
      const { toolCallId, toolName, input } = paused;
      if (paused.needsApproval && answer?.approved !== true) {
        const output = declinedOutput(answer?.reason);
        emit({ type: 'tool-result', toolCallId, toolName, input, output } as LoopPart);
        return { type: 'tool-result', toolCallId, toolName, output };
      }
      const call = await parseToolCall({ type: 'tool-call', toolCallId, toolName, input: JSON.stringify(input ?? {}) }, tools);
      if (call.invalid || tools[toolName]?.execute == null) {
        const error = call.invalid ? String((call.error as Error | undefined)?.message ?? call.error) : `${toolName} is no longer offered`;
        emit({ type: 'tool-error', toolCallId, toolName, input, error } as LoopPart);
        return { type: 'tool-error', toolCallId, toolName, error };
      }
      const result = await executeToolCall(call, tools, context, emit);
      return result.type === 'tool-result'
        ? { type: 'tool-result', toolCallId, toolName, output: result.output }
        : { type: 'tool-error', toolCallId, toolName, error: String((result.error as Error | undefined)?.message ?? result.error) };
    }),
  );
  return results;
}
