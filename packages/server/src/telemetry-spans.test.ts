import { SpanStatusCode } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { createOtelObservers } from '@chatwire/core/telemetry';
import { describe, expect, it } from 'vitest';
import { chatFixture, readSse } from './test-support/chat-fixture.js';
import { scriptedModel, textStep, toolStep, type Script } from './test-support/scripted-model.js';

const SECRET_QUESTION = 'what is my secret pancake recipe';
const SECRET_ANSWER = 'Mix flour with blueberries';

function traced(scripts: Script[], options: { recordContent?: boolean; failAfter?: number } = {}) {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const scripted = scriptedModel(scripts, options.failAfter === undefined ? {} : { failAfter: options.failAfter });
  const f = chatFixture(scripted.model, {
    handler: { observe: createOtelObservers({ tracer: provider.getTracer('test'), recordContent: options.recordContent ?? false }) },
  });
  async function turn(content = SECRET_QUESTION) {
    const chatId = await f.createChat('alice');
    const res = await f.request('POST', '/chat', { body: { chatId, userMessageId: 'u1', content } });
    await readSse(res);
    await expect.poll(() => exporter.getFinishedSpans().some((s) => s.name === 'chat.turn')).toBe(true);
    return { chatId, asstId: res.headers.get('x-asst-id')! };
  }
  return { exporter, turn, f };
}

const parentId = (span: ReadableSpan) => span.parentSpanContext?.spanId;

describe('OpenTelemetry spans through the handler', () => {
  it('one turn span with children for prepare, each model step, each tool call and the save', async () => {
    const { exporter, turn } = traced([toolStep('schema_list', {}), textStep(SECRET_ANSWER)]);
    const { chatId, asstId } = await turn();
    const spans = exporter.getFinishedSpans();
    const root = spans.find((s) => s.name === 'chat.turn')!;
    expect(parentId(root)).toBeUndefined();
    const children = spans.filter((s) => parentId(s) === root.spanContext().spanId);
    expect(children.map((s) => s.name).sort()).toEqual(
      ['chat alpha-sonnet-4-6', 'chat alpha-sonnet-4-6', 'chat.prepare', 'chat.save', 'execute_tool schema_list'].sort(),
    );
    expect(spans).toHaveLength(6);
    // Children in time order: prepare, step 0, tool, step 1, save (spans started in the same tick may tie).
    const start = (s: (typeof children)[number]) => s.startTime[0] * 1e9 + s.startTime[1];
    const [step0, step1] = children.filter((s) => s.name === 'chat alpha-sonnet-4-6').sort((a, b) => start(a) - start(b));
    const named = (name: string) => children.find((s) => s.name === name)!;
    const sequence = [named('chat.prepare'), step0!, named('execute_tool schema_list'), step1!, named('chat.save')].map(start);
    expect(sequence).toEqual([...sequence].sort((a, b) => a - b));

    expect(root.attributes).toMatchObject({
      'chat.id': chatId,
      'user.id': 'alice',
      'chat.turn.id': asstId,
      'gen_ai.operation.name': 'chat',
      'gen_ai.conversation.id': chatId,
      'gen_ai.request.model': 'alpha-sonnet-4-6',
      'gen_ai.provider.name': 'provider_a',
      'gen_ai.system': 'provider_a',
      'gen_ai.response.finish_reasons': ['stop'],
      'gen_ai.usage.input_tokens': 20,
      'gen_ai.usage.output_tokens': 10,
      'chat.turn.ending': 'completed',
    });
    const [firstStep, secondStep] = [step0, step1];
    expect(firstStep!.attributes).toMatchObject({ 'gen_ai.response.finish_reasons': ['tool-calls'], 'gen_ai.usage.input_tokens': 10, 'chat.turn.step': 0 });
    expect(secondStep!.attributes).toMatchObject({ 'gen_ai.response.finish_reasons': ['stop'], 'chat.turn.step': 1 });
    const tool = children.find((s) => s.name.startsWith('execute_tool'))!;
    expect(tool.attributes).toMatchObject({ 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'schema_list', 'gen_ai.tool.call.id': 'call-1' });
    expect(spans.every((s) => s.status.code !== SpanStatusCode.ERROR)).toBe(true);
    // No message text anywhere: attributes, events, status.
    const everything = JSON.stringify(spans.map((s) => [s.attributes, s.events, s.status]));
    expect(everything).not.toContain('pancake');
    expect(everything).not.toContain('blueberries');
  });

  it('a failing tool is an ERROR span with an exception event; its message only with recordContent', async () => {
    for (const recordContent of [false, true]) {
      const { exporter, turn } = traced([toolStep('records_get', { collection: 42, pancake: true }), textStep('Sorry.')], { recordContent });
      await turn();
      const tool = exporter.getFinishedSpans().find((s) => s.name === 'execute_tool records_get')!;
      expect(tool.status.code).toBe(SpanStatusCode.ERROR);
      expect(tool.attributes['error.type']).toBe('tool_error');
      expect(tool.events.map((e) => e.name)).toEqual(['exception']);
      const message = tool.events[0]!.attributes?.['exception.message'];
      if (recordContent) expect(String(message)).toContain('Invalid input');
      else expect(message).toBeUndefined();
      // The turn itself went on and completed.
      expect(exporter.getFinishedSpans().find((s) => s.name === 'chat.turn')!.status.code).not.toBe(SpanStatusCode.ERROR);
    }
  });

  it('a provider failure marks the turn span ERROR with an exception event; no save span', async () => {
    const { exporter, turn } = traced([textStep('one two three four')], { failAfter: 2 });
    await turn();
    const spans = exporter.getFinishedSpans();
    const root = spans.find((s) => s.name === 'chat.turn')!;
    expect(root.status.code).toBe(SpanStatusCode.ERROR);
    expect(root.attributes).toMatchObject({ 'chat.turn.ending': 'failed', 'error.type': 'turn_failed' });
    expect(root.events.map((e) => e.name)).toEqual(['exception']);
    expect(spans.map((s) => s.name)).not.toContain('chat.save');
    // The step cut off by the failure is ended and marked too.
    const step = spans.find((s) => s.name === 'chat alpha-sonnet-4-6')!;
    expect(step.status.code).toBe(SpanStatusCode.ERROR);
    expect(spans.every((s) => s.ended)).toBe(true);
  });

  it('without an SDK (the global no-op tracer) turns are not observed and still run', async () => {
    const f = chatFixture(scriptedModel([textStep('Hi')]).model, { handler: { observe: createOtelObservers() } });
    const chatId = await f.createChat('alice');
    const res = await f.request('POST', '/chat', { body: { chatId, userMessageId: 'u1', content: 'Hi' } });
    expect((await readSse(res)).done).toBe(true);
    expect(await f.rows('ai-turns')).toHaveLength(1);
  });
});
