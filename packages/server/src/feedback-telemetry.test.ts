import { createOtelObservers } from '@chatwire/core/telemetry';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { chatFixture, readSse } from './test-support/chat-fixture.js';
import { scriptedModel, textStep } from './test-support/scripted-model.js';

function traced(recordContent: boolean) {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const f = chatFixture(scriptedModel([textStep('Answer')]).model, {
    handler: { observe: createOtelObservers({ tracer: provider.getTracer('test'), recordContent }) },
  });
  return { exporter, f };
}

describe('feedback telemetry', () => {
  it('a chat.feedback span in the rated turn’s trace (child of and linked to the turn span) with the rating as an event', async () => {
    const { exporter, f } = traced(false);
    const chatId = await f.createChat('alice');
    const res = await f.request('POST', '/chat', { body: { chatId, userMessageId: 'u1', content: 'Hi' } });
    await readSse(res);
    const asst = res.headers.get('x-asst-id')!;
    await expect.poll(() => exporter.getFinishedSpans().some((s) => s.name === 'chat.turn')).toBe(true);
    const turnSpan = exporter.getFinishedSpans().find((s) => s.name === 'chat.turn')!.spanContext();
    expect((await f.rows('ai-turns'))[0]!.data.trace).toEqual({ traceId: turnSpan.traceId, spanId: turnSpan.spanId });

    const path = `/chats/${chatId}/messages/${asst}/feedback`;
    expect((await f.request('PUT', path, { body: { rating: 'down', comment: 'my private words' } })).status).toBe(200);
    expect((await f.request('DELETE', path)).status).toBe(200);
    const spans = exporter.getFinishedSpans().filter((s) => s.name === 'chat.feedback');
    expect(spans).toHaveLength(2);
    for (const span of spans) {
      expect(span.spanContext().traceId).toBe(turnSpan.traceId);
      expect(span.parentSpanContext?.spanId).toBe(turnSpan.spanId);
      expect(span.links.map((l) => l.context.spanId)).toEqual([turnSpan.spanId]);
      expect(span.attributes).toMatchObject({ 'chat.id': chatId, 'chat.message.id': asst, 'gen_ai.request.model': expect.any(String) });
    }
    expect(spans.map((s) => s.events.map((e) => [e.name, e.attributes]))).toEqual([
      [['chat.feedback', { 'chat.feedback.action': 'set', 'chat.feedback.rating': 'down' }]],
      [['chat.feedback', { 'chat.feedback.action': 'delete' }]],
    ]);
    expect(JSON.stringify(spans.map((s) => [s.attributes, s.events]))).not.toContain('my private words');
  });

  it('records the comment only with recordContent', async () => {
    const { exporter, f } = traced(true);
    const chatId = await f.createChat('alice');
    const res = await f.request('POST', '/chat', { body: { chatId, userMessageId: 'u1', content: 'Hi' } });
    await readSse(res);
    await f.request('PUT', `/chats/${chatId}/messages/${res.headers.get('x-asst-id')}/feedback`, { body: { rating: 'up', comment: 'Spot on' } });
    const span = exporter.getFinishedSpans().find((s) => s.name === 'chat.feedback')!;
    expect(span.events[0]!.attributes).toMatchObject({ 'chat.feedback.comment': 'Spot on' });
  });
});
