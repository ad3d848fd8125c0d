import type { ModelMessage } from 'ai';
import { executeToolCall } from './execute-tool-call.js';
import type { LoopPart, PartSink } from './loop-part.js';
import type { StepState } from './step-state.js';
import { callsAwaitingApproval } from '../approval/calls-awaiting-approval.js';
import type { ParsedToolCall } from './parse-tool-call.js';

/** Whether a call must wait for the user's approval (absent: no call does). */
export type ApprovalGate = (call: ParsedToolCall) => Promise<boolean>;

/**
 * Runs the step's pending tool calls, all at once, once the model call finished with `stop` or `tool-calls`
 * (otherwise none runs), handing their results to `sink` as they come and adding them to the step's content.
 * `ended`: the sink stopped the loop or the turn was aborted (an `abort` part was handed over); an abort does
 * not wait for a tool that ignores its signal. `awaiting-approval`: a call needs the user's approval, so none
 * ran; the calls are in `step.awaiting`.
 */
export async function runPendingTools(
  step: StepState,
  context: { stepMessages: () => Promise<ModelMessage[]>; abortSignal: AbortSignal; needsApproval?: ApprovalGate | undefined },
  sink: PartSink,
): Promise<'ended' | 'awaiting-approval' | undefined> {
  const { abortSignal, needsApproval } = context;
  if (step.pending.length === 0 || (step.finishReason !== 'stop' && step.finishReason !== 'tool-calls')) return undefined;
  if (needsApproval) {
    const awaiting = await callsAwaitingApproval(step.pending, (call) => needsApproval(call as ParsedToolCall));
    if (awaiting !== null) {
      step.awaiting = awaiting;
      return 'awaiting-approval';
    }
  }
  let stopped = false;
  const emit = (part: LoopPart) => {
    if (!stopped && (abortSignal.aborted || sink(part) === false)) stopped = true;
  };
  const toolContext = { messages: await context.stepMessages(), abortSignal };
  const results = await untilAborted(Promise.all(step.pending.map((call) => executeToolCall(call, step.tools, toolContext, emit))), abortSignal);
  if (abortSignal.aborted || results === null) return void sink({ type: 'abort' }), 'ended';
  if (stopped) return 'ended';
  for (const result of results) {
    const common = { toolCallId: result.toolCallId, toolName: result.toolName, providerExecuted: result.providerExecuted };
    step.content.push(result.type === 'tool-result' ? { type: 'tool-result', ...common, output: result.output } : { type: 'tool-error', ...common, error: result.error });
  }
  return undefined;
}

/** `work`'s value, or null as soon as `signal` aborts. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T | null> {
  if (signal.aborted) return Promise.resolve(null);
  return new Promise<T | null>((resolve, reject) => {
    const onAbort = () => resolve(null);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => (signal.removeEventListener('abort', onAbort), resolve(value)),
      (error: unknown) => (signal.removeEventListener('abort', onAbort), reject(error)),
    );
  });
}
