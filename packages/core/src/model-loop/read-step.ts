import type { LanguageModelV2StreamPart, LanguageModelV2ToolCall } from '@ai-sdk/provider';
import { getErrorMessage } from '@ai-sdk/provider';
import type { LanguageModelUsage, ModelMessage, ToolSet } from 'ai';
import type { PartSource } from '../model-specs/unsupported-part-error.js';
import type { LoopPart, LoopPartOf, PartSink } from './loop-part.js';
import { mapProviderPart, type MappedProviderPart } from './map-provider-part.js';
import { knownFinishReason } from './known-finish-reason.js';
import { parseToolCall, type ParsedToolCall } from './parse-tool-call.js';
import { runPendingTools, type ApprovalGate } from './run-pending-tools.js';
import type { PausedCall } from '../approval/approval-types.js';
import type { StepContentPart } from './step-content.js';
import { StepState, type StepFinishReason } from './step-state.js';

export interface StepContext {
  tools: ToolSet;
  /** This step's messages (built on first use: only tool hooks and tool calls need them). */
  stepMessages: () => Promise<ModelMessage[]>;
  abortSignal: AbortSignal;
  headers: Record<string, string> | undefined;
  /** The model, named in the error of a part it should not have sent. */
  source: PartSource;
  needsApproval?: ApprovalGate | undefined;
}

export interface StepResult {
  content: StepContentPart[];
  calls: ParsedToolCall[];
  usage: LanguageModelUsage;
  finishReason: StepFinishReason;
  /** The step's calls, none of them run, when one waits for the user's approval. */
  awaiting: PausedCall[] | null;
}

/**
 * Reads one model call's stream to its end, then runs the tools it called, unless one of them waits for the
 * user's approval (`awaiting`). `ended`: the sink stopped it.
 */
export async function readStep(stream: ReadableStream<LanguageModelV2StreamPart>, ctx: StepContext, sink: PartSink): Promise<StepResult | 'ended'> {
  const { abortSignal } = ctx;
  const step = new StepState(ctx.tools, ctx.source.modelId);
  const reader = stream.getReader();
  const send = (part: LoopPart) => sink(part) !== false;
  let started = false;
  let done = false;
  try {
    for (;;) {
      const read = await reader.read();
      if (read.done) break;
      const part = read.value;
      if (abortSignal.aborted) return void sink({ type: 'abort' }), 'ended';
      if (part.type === 'stream-start') {
        step.warnings = part.warnings;
        continue;
      }
      if (!started) {
        started = true;
        // The provider's request (its whole prompt) is not kept for the part: nothing reads it.
        if (!send({ type: 'start-step', request: {}, warnings: step.warnings } satisfies LoopPartOf<'start-step'>)) return 'ended';
      }
      if (part.type === 'tool-call') {
        if (!(await takeToolCall(part, step, ctx, send))) return 'ended';
        continue;
      }
      // Only tool input parts may wait for a hook: every other part is handed over without a turn of the event loop.
      if (part.type === 'tool-input-start' || part.type === 'tool-input-delta') await runInputHook(part, step, ctx);
      const out = mapProviderPart(part, step, ctx.source);
      if (out !== undefined && !send(out)) return 'ended';
    }
    done = true;
  } finally {
    // Ended early (stopped, aborted, failed): the provider's response is not read further.
    if (!done) reader.cancel().catch(() => undefined);
  }
  if (abortSignal.aborted) return void sink({ type: 'abort' }), 'ended';
  if ((await runPendingTools(step, ctx, sink)) === 'ended') return 'ended';
  if (!send(finishStep(step, ctx.headers))) return 'ended';
  return { content: step.content, calls: step.calls, usage: step.usage, finishReason: step.finishReason, awaiting: step.awaiting };
}

/** The step's `finish-step` part. */
function finishStep(step: StepState, headers: Record<string, string> | undefined): LoopPartOf<'finish-step'> {
  const { finishReason, usage, providerMetadata, response } = step;
  return { type: 'finish-step', finishReason: knownFinishReason(finishReason), usage, providerMetadata, response: { ...response, headers } };
}

/** The hooks a tool has for its input while it streams (`onInputStart`, `onInputDelta`), as `streamText` calls them. */
async function runInputHook(part: Extract<MappedProviderPart, { type: 'tool-input-start' | 'tool-input-delta' }>, step: StepState, ctx: StepContext): Promise<void> {
  const toolName = part.type === 'tool-input-start' ? part.toolName : step.inputTools.get(part.id);
  const tool = toolName === undefined ? undefined : step.tools[toolName];
  if (part.type === 'tool-input-start' && tool?.onInputStart) await tool.onInputStart({ toolCallId: part.id, ...(await hookContext(ctx)) });
  if (part.type === 'tool-input-delta' && tool?.onInputDelta) await tool.onInputDelta({ inputTextDelta: part.delta, toolCallId: part.id, ...(await hookContext(ctx)) });
}

/**
 * A complete tool call: parsed and handed over, then, if it can run, its `onInputAvailable` hook called and
 * queued when this process runs it; if it cannot, a `tool-error` follows it. False: the sink stopped the loop.
 */
async function takeToolCall(part: LanguageModelV2ToolCall, step: StepState, ctx: StepContext, send: (part: LoopPart) => boolean): Promise<boolean> {
  const call = await parseToolCall(part, step.tools);
  step.calls.push(call);
  step.content.push({ type: 'tool-call', toolCallId: call.toolCallId, toolName: call.toolName, input: call.input, providerExecuted: call.providerExecuted, providerMetadata: call.providerMetadata });
  if (!send(call)) return false;
  if (call.invalid) {
    const error = getErrorMessage(call.error);
    step.content.push({ type: 'tool-error', toolCallId: call.toolCallId, toolName: call.toolName, error });
    return send({ type: 'tool-error', toolCallId: call.toolCallId, toolName: call.toolName, input: call.input, error, dynamic: true } satisfies LoopPartOf<'tool-error'>);
  }
  step.inputs.set(call.toolCallId, call.input);
  // A call the provider ran itself may name a tool outside the tool set.
  const tool = step.tools[call.toolName];
  if (tool?.onInputAvailable) await tool.onInputAvailable({ input: call.input, toolCallId: call.toolCallId, ...(await hookContext(ctx)) });
  if (tool?.execute != null && call.providerExecuted !== true) step.pending.push(call);
  return true;
}

async function hookContext(ctx: StepContext) {
  return { messages: await ctx.stepMessages(), abortSignal: ctx.abortSignal, experimental_context: undefined };
}
