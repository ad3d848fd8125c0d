import type { LanguageModelUsage } from 'ai';
import { runAiSdkSteps } from '../model-loop/run-ai-sdk-steps.js';
import { runModelLoop, type LoopPart } from '../model-loop/run-model-loop.js';
import type { PreparedPrompt } from './prepare-prompt.js';
import { stepPolicy } from './step-policy.js';
import { TurnInterrupt, type InterruptKind } from './turn-ending.js';
import type { Turn } from './turn.js';
import type { TurnRuntime } from './turn-runtime.js';
import { uiChunkFromPart } from './ui-chunk-from-part.js';
import { ProviderWatchdog } from './provider-watchdog.js';
import { UsageSum } from './usage-sum.js';
import { toolErrorText } from './error-text.js';
import { TURN_TEXTS } from './turn-texts.js';
import { openCatalogForTurn } from '../tools/open-turn-tools.js';
import type { PendingApproval } from '../approval/approval-types.js';
import { isApprovalNeeded } from '../approval/approval-rule.js';
import { continuePausedStep, type Resumed } from '../approval/continue-paused-step.js';
import { toolApprovalChunk } from '../approval/tool-approval-chunk.js';
import { refuseUnapprovedTools } from '../approval/refuse-unapproved-tools.js';

/** How the model phase of a turn ended. */
export type StreamOutcome =
  | { kind: 'finished'; finishReason: string; usage: LanguageModelUsage; steps: number }
  | { kind: 'interrupted'; interrupt: InterruptKind; usage: LanguageModelUsage; steps: number }
  /** A step's tool calls wait for the user's approval: `pending` is stored with the turn. */
  | { kind: 'awaiting-approval'; pending: PendingApproval; usage: LanguageModelUsage; steps: number }
  /**
   * `persist`: a write the phase makes itself (continuing after approvals) failed or found the chat gone.
   * `errorText` is what the client reads, when not the safe text of `error`.
   */
  | { kind: 'failed'; error: unknown; stage: 'model' | 'history' | 'persist'; errorText?: string };

/**
 * Phase two of a turn: the model steps and the tool loop, each part mapped to the chunk the client is sent
 * and applied to the answer that will be stored. The `finish` chunk is not sent here: the settle phase
 * sends it once the answer is stored.
 *
 * The steps run on chatwire's model loop over the provider interface (`runModelLoop`), or on the AI SDK's
 * `streamText` when the app asked for the SDK's own telemetry spans or names a model by a gateway string
 * (`runAiSdkSteps`); both hand over the same parts. An `error` part ends the phase at once: nothing after
 * it is streamed or stored.
 *
 * When a step's calls need the user's approval the phase ends there (`awaiting-approval`), with one
 * `data-tool-approval` chunk per call to answer. A turn continued after approvals first runs the answered
 * calls (`continuePausedStep`), then goes on with the model's next step; the step cap counts the whole turn.
 * The AI SDK's `streamText` cannot pause: there a tool that needs approval refuses to run.
 */
export async function streamModel(turn: Turn, prompt: PreparedPrompt, rt: TurnRuntime): Promise<StreamOutcome> {
  const signal = turn.signal;
  const usage = new UsageSum();
  const { plan } = turn;
  let steps = plan.trigger === 'approval' ? plan.pending.steps : 0;
  const interrupted = (): StreamOutcome => ({ kind: 'interrupted', interrupt: TurnInterrupt.kindOf(signal), usage: usage.total, steps });
  if (signal.aborted) return interrupted();
  const turnTools = await openCatalogForTurn(rt.tools, { caller: turn.caller, records: rt.store.asCaller(turn.caller), abortSignal: signal });
  const { tools } = turnTools;
  for (const problem of turnTools.problems) turn.toolSourceProblem(problem);
  const watchdog = new ProviderWatchdog(rt.firstByteTimeoutMs, rt.idleTimeoutMs, (kind) => turn.interrupt(kind));
  const { output, answer, observer } = turn;
  let outcome: StreamOutcome | null = null;

  /** One part of the steps; false once the phase has its outcome. */
  const onPart = (part: LoopPart): boolean => {
    // A tool the provider runs itself is provider time: it does not pause the watchdog.
    watchdog.saw(part.type === 'tool-call' && part.providerExecuted ? 'provider-tool-call' : part.type);
    switch (part.type) {
      case 'text-delta':
        answer.appendText(part.id, part.text);
        output.sendTextDelta(part.id, part.text);
        return true;
      case 'error':
        turn.report(part.error, 'model');
        outcome = { kind: 'failed', error: part.error, stage: 'model' };
        return false;
      case 'abort':
        outcome = interrupted();
        return false;
      case 'approval-pause':
        for (const call of part.pending.calls) {
          if (!call.needsApproval) continue;
          const chunk = toolApprovalChunk(call);
          answer.apply(chunk);
          output.send(chunk);
        }
        outcome = { kind: 'awaiting-approval', pending: part.pending, usage: usage.total, steps };
        return false;
      case 'finish':
        outcome = signal.aborted ? interrupted() : { kind: 'finished', finishReason: part.finishReason, usage: part.totalUsage, steps };
        return false;
      case 'finish-step':
        steps++;
        usage.add(part.usage);
        observer.stepFinished({ finishReason: part.finishReason, usage: part.usage });
        break;
      case 'start-step':
        observer.stepStarted();
        break;
      case 'tool-call':
        observer.toolStarted(part.toolCallId, part.toolName);
        if (part.invalid) observer.toolFinished(part.toolCallId, toolErrorText(part.error));
        break;
      case 'tool-result':
        if (!part.preliminary) observer.toolFinished(part.toolCallId);
        break;
      case 'tool-error':
        observer.toolFinished(part.toolCallId, toolErrorText(part.error));
        break;
    }
    const chunk = uiChunkFromPart(part, tools);
    if (chunk) {
      answer.apply(chunk);
      output.send(chunk);
    }
    return true;
  };

  let resume: Resumed | undefined;
  if (plan.trigger === 'approval') {
    for (const call of plan.pending.calls) observer.toolStarted(call.toolCallId, call.toolName);
    try {
      const resumed = await continuePausedStep(turn, plan, tools, rt, onPart);
      if (resumed === 'interrupted') return interrupted();
      if (resumed === 'lost-lease') return { kind: 'interrupted', interrupt: 'lost-lease', usage: usage.total, steps };
      if (resumed === 'chat-deleted') return { kind: 'failed', error: new Error('the chat was deleted'), stage: 'persist', errorText: TURN_TEXTS.chatDeleted };
      resume = resumed;
    } catch (error) {
      turn.report(error, 'persist');
      return { kind: 'failed', error, stage: 'persist', errorText: TURN_TEXTS.saveFailed };
    }
  }
  const policy = stepPolicy(rt.compaction);
  const steps$ = {
    system: rt.system,
    history: prompt.history,
    tools,
    maxSteps: policy.maxSteps,
    prepareStep: policy.prepareStep,
    abortSignal: signal,
    maxRetries: rt.maxRetries,
    resume,
  };
  const model = turn.model.model;
  const needsApproval = (call: { toolCallId: string; toolName: string; input: unknown }) => isApprovalNeeded(tools[call.toolName], call, turn.caller);
  watchdog.modelCallStarted();
  try {
    if (typeof model === 'string' || rt.aiSdkTelemetry) {
      await runAiSdkSteps({ ...steps$, tools: refuseUnapprovedTools(tools, turn.caller), model, telemetry: rt.aiSdkTelemetry }, onPart);
    } else await runModelLoop({ ...steps$, model, needsApproval }, onPart);
  } catch (error) {
    if (!signal.aborted) {
      turn.report(error, 'model');
      return { kind: 'failed', error, stage: 'model' };
    }
  } finally {
    watchdog.clear();
    // Not awaited: letting go of tool sources' connections must not delay the turn's ending.
    turnTools.close().catch((error: unknown) => turn.report(error, 'tool'));
  }
  if (outcome) return outcome;
  if (signal.aborted) return interrupted();
  return { kind: 'failed', error: new Error('the model stream ended without finishing'), stage: 'model' };
}
