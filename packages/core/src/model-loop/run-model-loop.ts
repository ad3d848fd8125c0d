import type { LanguageModelV2 } from '@ai-sdk/provider';
import type { LanguageModelUsage, ModelMessage, ToolChoice, ToolSet } from 'ai';
import { convertToLanguageModelPrompt, prepareCallSettings, prepareRetries, prepareToolsAndToolChoice, standardizePrompt } from 'ai/internal';
import { addUsage, NO_USAGE } from './add-usage.js';
import { knownFinishReason } from './known-finish-reason.js';
import type { PartSink } from './loop-part.js';
import { readStep } from './read-step.js';
import { stepResponseMessages } from './step-content.js';
import type { ApprovalGate } from './run-pending-tools.js';
import { refuseDownloads } from './refuse-downloads.js';

export type { LoopPart, PartSink } from './loop-part.js';

export interface ModelLoopOptions {
  model: LanguageModelV2;
  system: string | undefined;
  /**
   * The turn's history, asked for each time a step needs it: to build a model call's prompt, and, only
   * when the model calls tools, for the tools and the next step. The loop keeps no copy while the model
   * streams, so the source may hand over a prepared array once and rebuild it afterwards.
   */
  history: () => Promise<ModelMessage[]>;
  tools: ToolSet;
  /** Model calls per turn at most (each one a round trip, tool results included). */
  maxSteps: number;
  /** What a step after the first is sent instead of the SDK's messages, and its tool choice. */
  prepareStep?: (step: { stepNumber: number; messages: ModelMessage[] }) => { messages?: ModelMessage[]; toolChoice?: ToolChoice<ToolSet> } | undefined;
  abortSignal: AbortSignal;
  maxRetries: number;
  /** Whether a call waits for the user's approval: its step then ends the loop with an `approval-pause` part. */
  needsApproval?: ApprovalGate | undefined;
  /** A turn continued after approvals: the messages its earlier steps added, and how many steps it used. */
  resume?: { added: ModelMessage[]; steps: number } | undefined;
}

const CALL_SETTINGS = prepareCallSettings({});

/**
 * The turn's model steps and tool loop over the provider interface (`LanguageModelV2.doStream`): what
 * `streamText` does for chatwire, without its stream plumbing. Each provider part is mapped and handed to
 * `sink` as it is read (one read per part, no intermediate streams), so a turn holds only the provider's
 * stream, the step's content and the parts in flight. The behaviour is the SDK's, with the SDK's own
 * helpers (`ai/internal`): the same prompt conversion and tool preparation, the same retries (exponential
 * backoff honouring `retry-after`), the same tool-call parsing and execution, tools run once the model call
 * finished with `stop` or `tool-calls`, the same usage sums and the same response messages for the next step.
 * An abort ends with an `abort` part; a provider failure with an `error` part.
 */
export async function runModelLoop(options: ModelLoopOptions, sink: PartSink): Promise<void> {
  const { model, tools, abortSignal } = options;
  const { retry } = prepareRetries({ maxRetries: options.maxRetries, abortSignal });
  /** What earlier steps of this turn added to the history (assistant answers with tool calls, tool results). */
  let added: ModelMessage[] = options.resume?.added ?? [];
  let totalUsage: LanguageModelUsage = NO_USAGE;
  try {
    for (let stepNumber = options.resume?.steps ?? 0; ; stepNumber++) {
      // The step cap counts the whole turn: a continued turn that used every step asks the model nothing more.
      if (stepNumber >= options.maxSteps) return void sink({ type: 'finish', finishReason: 'tool-calls', totalUsage });
      const stepMessages = async () => [...(await standardized(options)).messages, ...added];
      const call = await callModel(options, stepNumber, stepMessages, retry);
      if (call === 'aborted') return void sink({ type: 'abort' });
      const source = { provider: model.provider, modelId: model.modelId, specificationVersion: model.specificationVersion };
      const ctx = { tools, stepMessages: once(stepMessages), abortSignal, headers: call.response?.headers, source, needsApproval: options.needsApproval };
      const step = await readStep(call.stream, ctx, sink);
      if (step === 'ended') return;
      totalUsage = addUsage(totalUsage, step.usage);
      if (step.awaiting) {
        return void sink({ type: 'approval-pause', pending: { added, content: step.content, calls: step.awaiting, steps: stepNumber + 1, usage: totalUsage } });
      }
      const clientCalls = step.calls.filter((toolCall) => toolCall.providerExecuted !== true);
      const clientOutputs = step.content.filter((part) => (part.type === 'tool-result' || part.type === 'tool-error') && part.providerExecuted !== true);
      if (clientCalls.length === 0 || clientOutputs.length !== clientCalls.length || stepNumber + 1 >= options.maxSteps) {
        sink({ type: 'finish', finishReason: knownFinishReason(step.finishReason), totalUsage });
        return;
      }
      added = [...added, ...stepResponseMessages(step.content, tools)];
    }
  } catch (error) {
    sink(abortSignal.aborted ? { type: 'abort' } : { type: 'error', error });
  }
}

/** The history as the SDK's `standardizePrompt` validates it (with the system prompt). */
async function standardized(options: ModelLoopOptions) {
  return standardizePrompt({ system: options.system, messages: await options.history() });
}

/** `load`, called at most once. */
function once<T>(load: () => Promise<T>): () => Promise<T> {
  let value: Promise<T> | undefined;
  return () => (value ??= load());
}

/**
 * Builds one step's prompt and starts its model call (with retries). A function of its own so that the
 * provider prompt it builds is garbage once the call has started: a turn does not hold it while streaming.
 */
async function callModel(
  options: ModelLoopOptions,
  stepNumber: number,
  stepMessages: () => Promise<ModelMessage[]>,
  retry: ReturnType<typeof prepareRetries>['retry'],
): Promise<Pick<LanguageModelV2StreamResult, 'stream' | 'response'> | 'aborted'> {
  const { model, tools, abortSignal } = options;
  const messages = await stepMessages();
  const prepared = stepNumber === 0 ? undefined : options.prepareStep?.({ stepNumber, messages });
  const { tools: stepTools, toolChoice } = prepareToolsAndToolChoice({ tools, toolChoice: prepared?.toolChoice, activeTools: undefined });
  const prompt = await convertToLanguageModelPrompt({
    prompt: { system: options.system, messages: prepared?.messages ?? messages },
    supportedUrls: await model.supportedUrls,
    download: refuseDownloads,
  });
  if (abortSignal.aborted) return 'aborted';
  const { stream, response } = await retry(() => model.doStream({ ...CALL_SETTINGS, tools: stepTools, toolChoice, prompt, abortSignal, includeRawChunks: false }));
  return { stream, response };
}

type LanguageModelV2StreamResult = Awaited<ReturnType<LanguageModelV2['doStream']>>;
