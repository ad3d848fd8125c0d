import { context as otelContext, SpanKind, trace, TraceFlags, type Attributes, type Link, type Tracer } from '@opentelemetry/api';
import { ATTR, SPAN } from './gen-ai-attributes.js';

/** A rating set or removed, as the feedback span records it. */
export interface FeedbackSpanEvent {
  action: 'set' | 'delete';
  chatId: string;
  messageId: string;
  userId: string;
  modelId: string;
  provider?: string;
  /** Null when removed. */
  rating: 'up' | 'down' | null;
  comment?: string;
  /** The rated turn's span, when its row has it. */
  trace?: { traceId: string; spanId: string };
}

const TRACE_ID = /^[0-9a-f]{32}$/;
const SPAN_ID = /^[0-9a-f]{16}$/;

/**
 * One short `chat.feedback` span with a `chat.feedback` event. When the rated turn's span ids are known the
 * span is a child of that turn span (same trace) and also links to it, so a trace viewer shows the rating
 * with the answer it rates; otherwise it starts a trace of its own. The comment is recorded only with
 * `recordContent` (it is user text).
 */
export function recordFeedbackSpan(tracer: Tracer, event: FeedbackSpanEvent, recordContent: boolean): void {
  const turn = event.trace && TRACE_ID.test(event.trace.traceId) && SPAN_ID.test(event.trace.spanId) ? event.trace : undefined;
  const turnContext = turn ? { traceId: turn.traceId, spanId: turn.spanId, traceFlags: TraceFlags.SAMPLED, isRemote: true } : undefined;
  const parent = turnContext ? trace.setSpanContext(otelContext.active(), turnContext) : otelContext.active();
  const links: Link[] = turnContext ? [{ context: turnContext }] : [];
  const attributes: Attributes = {
    [ATTR.chatId]: event.chatId,
    [ATTR.conversationId]: event.chatId,
    [ATTR.userId]: event.userId,
    [ATTR.turnId]: event.messageId,
    [ATTR.messageId]: event.messageId,
    [ATTR.requestModel]: event.modelId,
    ...(event.provider ? { [ATTR.providerName]: event.provider } : {}),
  };
  const span = tracer.startSpan(SPAN.feedback, { kind: SpanKind.INTERNAL, attributes, links }, parent);
  span.addEvent(SPAN.feedback, {
    'chat.feedback.action': event.action,
    ...(event.rating ? { [ATTR.feedbackRating]: event.rating } : {}),
    ...(recordContent && event.comment !== undefined ? { [ATTR.feedbackComment]: event.comment } : {}),
  });
  span.end();
}
