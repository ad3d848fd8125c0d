import { SpanStatusCode } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { observeNothing, type ObservedTurn } from '../turn/turn-observer.js';
import { createOtelObservers } from './create-otel-observers.js';

const TURN: ObservedTurn = { id: 'a1', chatId: 'c1', userId: 'alice', modelId: 'beta-5.4', provider: 'provider_b', trigger: 'submit' };
const USAGE = { inputTokens: 7, outputTokens: 3, totalTokens: 10 };

function sdk() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return { exporter, tracer: provider.getTracer('test') };
}

describe('createOtelObservers', () => {
  it('without an SDK registered, a turn gets the do-nothing observer', () => {
    expect(createOtelObservers()(TURN)).toBe(observeNothing(TURN));
  });

  it('a stopped turn ends the step it cut off; its finish reasons are those of its finished steps', async () => {
    const { exporter, tracer } = sdk();
    const observer = createOtelObservers({ tracer })(TURN);
    await observer.prepare(async () => undefined);
    observer.stepStarted();
    observer.stepFinished({ finishReason: 'tool-calls', usage: USAGE });
    observer.toolStarted('call-1', 'records_query');
    observer.stepStarted();
    observer.ended({ kind: 'stopped' }, USAGE);
    const spans = exporter.getFinishedSpans();
    expect(spans.map((s) => s.name)).toEqual(['chat.prepare', 'chat beta-5.4', 'chat beta-5.4', 'execute_tool records_query', 'chat.turn']);
    expect(spans.every((s) => s.status.code !== SpanStatusCode.ERROR)).toBe(true);
    expect(spans[2]!.attributes['chat.turn.ending']).toBe('stopped');
    expect(spans[4]!.attributes).toMatchObject({ 'gen_ai.response.finish_reasons': ['tool-calls'], 'gen_ai.usage.input_tokens': 7, 'chat.turn.ending': 'stopped' });
  });

  it('a failing save is an ERROR span with an exception event, and the error still reaches the turn', async () => {
    const { exporter, tracer } = sdk();
    const observer = createOtelObservers({ tracer })(TURN);
    await expect(observer.save(() => Promise.reject(new Error('database gone')))).rejects.toThrow('database gone');
    const [save] = exporter.getFinishedSpans();
    expect(save!.name).toBe('chat.save');
    expect(save!.status).toEqual({ code: SpanStatusCode.ERROR, message: 'database gone' });
    expect(save!.events[0]!.attributes).toMatchObject({ 'exception.message': 'database gone' });
  });

  it('aiSdkTelemetry hands the AI SDK the same tracer, recording content only with recordContent', () => {
    const { tracer } = sdk();
    expect(createOtelObservers({ tracer }).aiSdkTelemetry).toBeNull();
    expect(createOtelObservers({ tracer, aiSdkTelemetry: true }).aiSdkTelemetry).toEqual({
      isEnabled: true,
      tracer,
      recordInputs: false,
      recordOutputs: false,
      functionId: 'chatwire.turn',
    });
    expect(createOtelObservers({ tracer, aiSdkTelemetry: true, recordContent: true }).aiSdkTelemetry).toMatchObject({ recordInputs: true, recordOutputs: true });
  });
});
