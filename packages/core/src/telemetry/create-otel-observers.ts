import {
  context as otelContext,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import type { LanguageModelUsage } from 'ai';
import type { TurnEnding } from '../turn/turn-ending.js';
import { observeNothing, type ObservedTurn, type TurnObserver, type TurnObservers, type TurnTraceIds } from '../turn/turn-observer.js';
import { recordFeedbackSpan, type FeedbackSpanEvent } from './record-feedback-span.js';
import { ATTR, SPAN } from './gen-ai-attributes.js';

export interface OtelObserversOptions {
  /** Default: `trace.getTracer('chatwire')` of the globally registered provider (a no-op without an SDK). */
  tracer?: Tracer;
  /**
   * Record text that may hold conversation content: tool error messages (which can quote the model's tool
   * input) and, with `aiSdkTelemetry`, the AI SDK's prompt and response attributes. Default false.
   */
  recordContent?: boolean;
  /** Also turn on the AI SDK's own spans (`experimental_telemetry`) with the same tracer. Default false. */
  aiSdkTelemetry?: boolean;
}

/** What `streamText`'s `experimental_telemetry` is given when `aiSdkTelemetry` is on. */
export interface AiSdkTelemetry {
  isEnabled: boolean;
  tracer: Tracer;
  recordInputs: boolean;
  recordOutputs: boolean;
  functionId: string;
}

/**
 * Turn observers that write OpenTelemetry spans; `aiSdkTelemetry` is null unless asked for. `recordFeedback`
 * writes a feedback span in the rated turn's trace (the chat service calls it when a rating is set or removed).
 */
export type OtelObservers = TurnObservers & {
  readonly aiSdkTelemetry: AiSdkTelemetry | null;
  recordFeedback(event: FeedbackSpanEvent): void;
};

/**
 * One span per turn (`chat.turn`) with children for the prompt preparation and compaction
 * (`chat.prepare`), each model step (`chat {modelId}`), each tool call (`execute_tool {name}`) and the save
 * (`chat.save`), named and attributed after the OpenTelemetry GenAI semantic conventions v1.37 (Development).
 * No message text is recorded unless `recordContent`. Errors set the span's status to ERROR and add an
 * exception event. When the tracer does not record (no SDK registered), turns are not observed at all.
 */
export function createOtelObservers(options: OtelObserversOptions = {}): OtelObservers {
  const tracer = options.tracer ?? trace.getTracer('chatwire');
  const recordContent = options.recordContent ?? false;
  const observers: TurnObservers = (turn) => {
    const parent = otelContext.active();
    const span = tracer.startSpan(SPAN.turn, { kind: SpanKind.INTERNAL, attributes: turnAttributes(turn) }, parent);
    if (!span.isRecording()) {
      span.end();
      return observeNothing(turn);
    }
    return new OtelTurnObserver(tracer, span, trace.setSpan(parent, span), turn, recordContent);
  };
  const aiSdkTelemetry = options.aiSdkTelemetry
    ? { isEnabled: true, tracer, recordInputs: recordContent, recordOutputs: recordContent, functionId: 'chatwire.turn' }
    : null;
  const recordFeedback = (event: FeedbackSpanEvent): void => recordFeedbackSpan(tracer, event, recordContent);
  return Object.assign(observers, { aiSdkTelemetry, recordFeedback });
}

function turnAttributes(turn: ObservedTurn): Attributes {
  return {
    [ATTR.operationName]: 'chat',
    [ATTR.providerName]: turn.provider,
    [ATTR.system]: turn.provider,
    [ATTR.requestModel]: turn.modelId,
    [ATTR.conversationId]: turn.chatId,
    [ATTR.chatId]: turn.chatId,
    [ATTR.userId]: turn.userId,
    [ATTR.turnId]: turn.id,
    [ATTR.trigger]: turn.trigger,
  };
}

function usageAttributes(usage: LanguageModelUsage): Attributes {
  const attributes: Attributes = {};
  if (typeof usage.inputTokens === 'number') attributes[ATTR.inputTokens] = usage.inputTokens;
  if (typeof usage.outputTokens === 'number') attributes[ATTR.outputTokens] = usage.outputTokens;
  return attributes;
}

/** Marks `span` failed: status ERROR, `error.type`, and an exception event (its message only when given). */
function fail(span: Span, type: string, message: string | undefined): void {
  span.setAttribute(ATTR.errorType, type);
  span.recordException(message === undefined ? { name: type } : { name: type, message });
  span.setStatus(message === undefined ? { code: SpanStatusCode.ERROR } : { code: SpanStatusCode.ERROR, message });
}

class OtelTurnObserver implements TurnObserver {
  private step: Span | null = null;
  private steps = 0;
  private readonly tools = new Map<string, Span>();
  private readonly finishReasons: string[] = [];

  constructor(
    private readonly tracer: Tracer,
    private readonly span: Span,
    private readonly context: Context,
    private readonly turn: ObservedTurn,
    private readonly recordContent: boolean,
  ) {}

  prepare<T>(run: () => Promise<T>): Promise<T> {
    return this.wrap(SPAN.prepare, run);
  }

  traceIds(): TurnTraceIds {
    const { traceId, spanId } = this.span.spanContext();
    return { traceId, spanId };
  }

  save<T>(run: () => Promise<T>): Promise<T> {
    return this.wrap(SPAN.save, run);
  }

  stepStarted(): void {
    this.step?.end();
    this.step = this.tracer.startSpan(
      SPAN.step(this.turn.modelId),
      {
        kind: SpanKind.CLIENT,
        attributes: {
          [ATTR.operationName]: 'chat',
          [ATTR.providerName]: this.turn.provider,
          [ATTR.system]: this.turn.provider,
          [ATTR.requestModel]: this.turn.modelId,
          [ATTR.step]: this.steps++,
        },
      },
      this.context,
    );
  }

  stepFinished(info: { finishReason: string; usage: LanguageModelUsage }): void {
    const step = this.step;
    if (!step) return;
    this.step = null;
    this.finishReasons.push(info.finishReason);
    step.setAttributes({ [ATTR.finishReasons]: [info.finishReason], ...usageAttributes(info.usage) });
    if (info.finishReason === 'error') fail(step, 'model_error', undefined);
    step.end();
  }

  toolStarted(toolCallId: string, toolName: string): void {
    this.tools.get(toolCallId)?.end();
    const span = this.tracer.startSpan(
      SPAN.tool(toolName),
      {
        kind: SpanKind.INTERNAL,
        attributes: {
          [ATTR.operationName]: 'execute_tool',
          [ATTR.toolName]: toolName,
          [ATTR.toolCallId]: toolCallId,
          [ATTR.toolType]: 'function',
        },
      },
      this.context,
    );
    this.tools.set(toolCallId, span);
  }

  toolFinished(toolCallId: string, error?: string): void {
    const span = this.tools.get(toolCallId);
    if (!span) return;
    this.tools.delete(toolCallId);
    if (error !== undefined) fail(span, 'tool_error', this.recordContent ? error : undefined);
    span.end();
  }

  ended(ending: TurnEnding, usage: LanguageModelUsage): void {
    // Whatever is still open was cut off by the ending (a stop, a disconnect, a timeout).
    for (const open of [this.step, ...this.tools.values()]) {
      if (!open) continue;
      open.setAttribute(ATTR.ending, ending.kind);
      if (ending.kind === 'failed') fail(open, 'turn_failed', undefined);
      open.end();
    }
    this.step = null;
    this.tools.clear();
    const reasons = ending.kind === 'completed' ? [ending.finishReason] : this.finishReasons.length > 0 ? this.finishReasons : [ending.kind];
    this.span.setAttributes({ [ATTR.ending]: ending.kind, [ATTR.finishReasons]: reasons, ...usageAttributes(usage) });
    if (ending.kind === 'failed') fail(this.span, 'turn_failed', ending.errorText);
    else if (ending.kind === 'lost-lease') fail(this.span, 'lost_lease', 'Another turn took the chat over');
    this.span.end();
  }

  private async wrap<T>(name: string, run: () => Promise<T>): Promise<T> {
    const span = this.tracer.startSpan(name, { kind: SpanKind.INTERNAL }, this.context);
    try {
      return await otelContext.with(trace.setSpan(this.context, span), run);
    } catch (error) {
      fail(span, error instanceof Error ? error.name : 'Error', error instanceof Error ? error.message : String(error));
      throw error;
    } finally {
      span.end();
    }
  }
}
