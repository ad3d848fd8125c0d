import type { LanguageModelV2, LanguageModelV2StreamPart, LanguageModelV2Usage, SharedV2ProviderMetadata } from '@ai-sdk/provider';
import { getErrorMessage } from '@ai-sdk/provider';
import { convertBase64ToUint8Array, convertUint8ArrayToBase64 } from '@ai-sdk/provider-utils';
import type { LanguageModelUsage, ModelMessage, TextStreamPart, ToolChoice, ToolSet } from 'ai';
import { convertToLanguageModelPrompt, prepareCallSettings, prepareRetries, prepareToolsAndToolChoice, standardizePrompt } from 'ai/internal';
import { executeToolCall } from './execute-tool-call.js';
import { parseToolCall, type ParsedToolCall } from './parse-tool-call.js';
import { stepResponseMessages, type StepContentPart } from './step-content.js';
import { addUsage, NO_USAGE } from './add-usage.js';
import { knownFinishReason } from './known-finish-reason.js';

/** One part of the loop's output: the same shapes as `streamText(...).fullStream`. */
export type LoopPart = TextStreamPart<ToolSet>;

/** Takes each part as it is produced; `false` ends the loop at once (the model call is cancelled). */
export type PartSink = (part: LoopPart) => boolean | void;

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
  let added: ModelMessage[] = [];
  let totalUsage: LanguageModelUsage = NO_USAGE;
  try {
    for (let stepNumber = 0; ; stepNumber++) {
      const stepMessages = async () => [...(await standardized(options)).messages, ...added];
      const call = await callModel(options, stepNumber, stepMessages, retry);
      if (call === 'aborted') return void sink({ type: 'abort' });
      const step = await readStep(call.stream, { tools, stepMessages: once(stepMessages), abortSignal, headers: call.response?.headers, modelId: model.modelId }, sink);
      if (step === 'ended') return;
      totalUsage = addUsage(totalUsage, step.usage);
      const clientCalls = step.calls.filter((toolCall) => toolCall.providerExecuted !== true);
      const clientOutputs = step.content.filter((part) => (part.type === 'tool-result' || part.type === 'tool-error') && part.providerExecuted !== true);
      if (clientCalls.length === 0 || clientOutputs.length !== clientCalls.length || stepNumber + 1 >= options.maxSteps) {
        sink({ type: 'finish', finishReason: knownFinishReason(step.finishReason), totalUsage } as LoopPart);
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
    download: undefined,
  });
  if (abortSignal.aborted) return 'aborted';
  const { stream, response } = await retry(() => model.doStream({ ...CALL_SETTINGS, tools: stepTools, toolChoice, prompt, abortSignal, includeRawChunks: false }));
  return { stream, response };
}

type LanguageModelV2StreamResult = Awaited<ReturnType<LanguageModelV2['doStream']>>;

interface StepContext {
  tools: ToolSet;
  /** This step's messages (built on first use: only tool hooks and tool calls need them). */
  stepMessages: () => Promise<ModelMessage[]>;
  abortSignal: AbortSignal;
  headers: Record<string, string> | undefined;
  modelId: string;
}

interface StepResult {
  content: StepContentPart[];
  calls: ParsedToolCall[];
  usage: LanguageModelUsage;
  finishReason: LanguageModelV2StreamPart & { type: 'finish' } extends { finishReason: infer R } ? R | 'error' | 'unknown' : never;
}

/** Reads one model call's stream to its end, then runs the tools it called. `ended`: the sink stopped it. */
async function readStep(stream: ReadableStream<LanguageModelV2StreamPart>, ctx: StepContext, sink: PartSink): Promise<StepResult | 'ended'> {
  const { tools, abortSignal } = ctx;
  const content: StepContentPart[] = [];
  const calls: ParsedToolCall[] = [];
  const pending: ParsedToolCall[] = [];
  const inputs = new Map<string, unknown>();
  const open = new Map<string, { text: string; providerMetadata?: SharedV2ProviderMetadata }>();
  const inputTools = new Map<string, string>();
  const hookContext = async () => ({ messages: await ctx.stepMessages(), abortSignal, experimental_context: undefined });
  let warnings: unknown[] = [];
  let started = false;
  let finishReason: StepResult['finishReason'] = 'unknown';
  let usage: LanguageModelV2Usage = NO_USAGE;
  let providerMetadata: SharedV2ProviderMetadata | undefined;
  let response = { id: '', timestamp: new Date(), modelId: ctx.modelId };
  const reader = stream.getReader();
  const send = (part: LoopPart) => sink(part) !== false;
  let done = false;
  try {
    for (;;) {
      const read = await reader.read();
      if (read.done) break;
      const part = read.value;
      if (abortSignal.aborted) return void sink({ type: 'abort' }), 'ended';
      if (part.type === 'stream-start') {
        warnings = part.warnings;
        continue;
      }
      if (!started) {
        started = true;
        // The provider's request (its whole prompt) is not kept for the part: nothing reads it.
        if (!send({ type: 'start-step', request: {}, warnings } as LoopPart)) return 'ended';
      }
      let out: LoopPart | undefined;
      switch (part.type) {
        case 'text-delta':
          if (part.delta.length === 0 && part.providerMetadata == null) continue;
          out = { type: 'text-delta', id: part.id, text: part.delta, providerMetadata: part.providerMetadata };
          appendText(open, part.id, part.delta, part.providerMetadata);
          break;
        case 'text-start':
        case 'reasoning-start': {
          const entry = { type: part.type === 'text-start' ? 'text' : 'reasoning', text: '', providerMetadata: part.providerMetadata } as const;
          open.set(part.id, entry);
          content.push(entry as StepContentPart);
          out = part as LoopPart;
          break;
        }
        case 'text-end':
        case 'reasoning-end': {
          const entry = open.get(part.id);
          if (entry && part.providerMetadata != null) entry.providerMetadata = part.providerMetadata;
          open.delete(part.id);
          out = part as LoopPart;
          break;
        }
        case 'reasoning-delta':
          out = { type: 'reasoning-delta', id: part.id, text: part.delta, providerMetadata: part.providerMetadata };
          appendText(open, part.id, part.delta, part.providerMetadata);
          break;
        case 'tool-input-start':
          inputTools.set(part.id, part.toolName);
          const onInputStart = tools[part.toolName]?.onInputStart;
          if (onInputStart) await onInputStart({ toolCallId: part.id, ...(await hookContext()) });
          out = { ...part, dynamic: tools[part.toolName]?.type === 'dynamic' } as LoopPart;
          break;
        case 'tool-input-delta': {
          const toolName = inputTools.get(part.id);
          const onInputDelta = toolName == null ? undefined : tools[toolName]?.onInputDelta;
          if (onInputDelta) await onInputDelta({ inputTextDelta: part.delta, toolCallId: part.id, ...(await hookContext()) });
          out = part as LoopPart;
          break;
        }
        case 'tool-input-end':
          inputTools.delete(part.id);
          out = part as LoopPart;
          break;
        case 'tool-call': {
          const call = await parseToolCall(part, tools);
          calls.push(call);
          content.push({ type: 'tool-call', toolCallId: call.toolCallId, toolName: call.toolName, input: call.input, providerExecuted: call.providerExecuted, providerMetadata: call.providerMetadata });
          if (!send(call as LoopPart)) return 'ended';
          if (call.invalid) {
            const error = getErrorMessage(call.error);
            content.push({ type: 'tool-error', toolCallId: call.toolCallId, toolName: call.toolName, error });
            out = { type: 'tool-error', toolCallId: call.toolCallId, toolName: call.toolName, input: call.input, error, dynamic: true } as LoopPart;
            break;
          }
          inputs.set(call.toolCallId, call.input);
          const tool = tools[call.toolName]!;
          if (tool.onInputAvailable) await tool.onInputAvailable({ input: call.input, toolCallId: call.toolCallId, ...(await hookContext()) });
          if (tool.execute != null && call.providerExecuted !== true) pending.push(call);
          continue;
        }
        case 'tool-result': {
          const input = inputs.get(part.toolCallId);
          const common = { toolCallId: part.toolCallId, toolName: part.toolName, input, providerExecuted: part.providerExecuted };
          if (part.isError) {
            content.push({ type: 'tool-error', ...common, error: part.result, providerMetadata: part.providerMetadata });
            out = { type: 'tool-error', ...common, error: part.result } as LoopPart;
          } else {
            content.push({ type: 'tool-result', ...common, output: part.result, providerMetadata: part.providerMetadata });
            out = { type: 'tool-result', ...common, output: part.result } as LoopPart;
          }
          break;
        }
        case 'file': {
          const base64 = typeof part.data === 'string' ? part.data : convertUint8ArrayToBase64(part.data);
          content.push({ type: 'file', base64, mediaType: part.mediaType });
          out = { type: 'file', file: { base64, mediaType: part.mediaType, get uint8Array() { return convertBase64ToUint8Array(base64); } } } as LoopPart;
          break;
        }
        case 'source':
          out = part as LoopPart;
          break;
        case 'response-metadata':
          response = { id: part.id ?? response.id, timestamp: part.timestamp ?? response.timestamp, modelId: part.modelId ?? response.modelId };
          continue;
        case 'finish':
          usage = part.usage;
          finishReason = part.finishReason;
          providerMetadata = part.providerMetadata;
          continue;
        case 'error':
          finishReason = 'error';
          out = { type: 'error', error: part.error };
          break;
        default:
          continue;
      }
      if (!send(out)) return 'ended';
    }
    done = true;
  } finally {
    // Ended early (stopped, aborted, failed): the provider's response is not read further.
    if (!done) reader.cancel().catch(() => undefined);
  }
  if (abortSignal.aborted) return void sink({ type: 'abort' }), 'ended';
  if (pending.length > 0 && (finishReason === 'stop' || finishReason === 'tool-calls')) {
    let stopped = false;
    const emit = (part: LoopPart) => {
      if (!stopped && (abortSignal.aborted || sink(part) === false)) stopped = true;
    };
    const context = { messages: await ctx.stepMessages(), abortSignal };
    // An abort does not wait for a tool that ignores its signal.
    const results = await untilAborted(Promise.all(pending.map((call) => executeToolCall(call, tools, context, emit))), abortSignal);
    if (abortSignal.aborted || results === null) return void sink({ type: 'abort' }), 'ended';
    if (stopped) return 'ended';
    for (const result of results) {
      content.push(
        result.type === 'tool-result'
          ? { type: 'tool-result', toolCallId: result.toolCallId, toolName: result.toolName, output: result.output, providerExecuted: result.providerExecuted }
          : { type: 'tool-error', toolCallId: result.toolCallId, toolName: result.toolName, error: result.error, providerExecuted: result.providerExecuted },
      );
    }
  }
  const finishStep = { type: 'finish-step', finishReason: knownFinishReason(finishReason), usage, providerMetadata, response: { ...response, headers: ctx.headers } } as LoopPart;
  if (!send(finishStep)) return 'ended';
  return { content, calls, usage, finishReason };
}

function appendText(open: Map<string, { text: string; providerMetadata?: SharedV2ProviderMetadata }>, id: string, delta: string, metadata: SharedV2ProviderMetadata | undefined): void {
  const entry = open.get(id);
  if (!entry) return;
  entry.text += delta;
  if (metadata != null) entry.providerMetadata = metadata;
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
