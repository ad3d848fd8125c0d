import { READ_ONLY_TOOLS } from '@chatwire/core';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { chatFixture, readSse, type ChatFixture } from './test-support/chat-fixture.js';
import { scriptedModel, textStep, toolStep } from './test-support/scripted-model.js';

const NOTES = {
  name: 'notes',
  columns: [
    { name: 'userId', type: 'string', required: true },
    { name: 'title', type: 'string', required: true },
  ],
  rules: { read: 'own', create: 'own', update: 'own', delete: 'own' },
} as const;

async function turn(f: ChatFixture, content = 'go') {
  const chatId = await f.createChat('alice');
  const res = await f.request('POST', '/chat', { body: { chatId, userMessageId: 'u1', content } });
  return { chatId, asstId: res.headers.get('x-asst-id')!, ...(await readSse(res)) };
}

describe('tools through the full handler', () => {
  it('a query tool call and its result reach the stream and the stored assistant parts', async () => {
    const scripted = scriptedModel([toolStep('records_query', { collection: 'notes' }), textStep('You have one note.')]);
    const f = chatFixture(scripted.model);
    f.store.register(NOTES);
    await f.store.asCaller({ userId: 'alice' }).create('notes', { title: 'Milk' });
    await f.store.asCaller({ userId: 'bob' }).create('notes', { title: 'Bob’s secret' });
    const { chunks, asstId } = await turn(f, 'list my notes');

    const output = chunks.find((c) => c.type === 'tool-output-available') as { output: { records: Array<{ data: { title: string } }> } };
    expect(output.output.records.map((r) => r.data.title)).toEqual(['Milk']);
    expect(JSON.stringify(chunks)).not.toContain('Bob’s secret');

    const assistant = (await f.rows('ai-messages')).find((m) => m.recordId === asstId)!;
    const toolPart = (assistant.data.parts as Array<Record<string, unknown>>).find((p) => p.type === 'tool-records_query');
    expect(toolPart).toMatchObject({ toolCallId: 'call-1', state: 'output-available', input: { collection: 'notes' } });
    const [turnRow] = await f.rows('ai-turns');
    expect(turnRow!.data).toMatchObject({ steps: 2, toolCalls: [{ toolCallId: 'call-1', toolName: 'records_query', state: 'output-available' }] });
  });

  it('input failing the schema gives tool-input-error and the loop goes on', async () => {
    const f = chatFixture(scriptedModel([toolStep('records_get', { collection: 42 }), textStep('Sorry.')]).model);
    const { chunks } = await turn(f);
    const error = chunks.find((c) => c.type === 'tool-input-error') as { toolName: string; errorText: string };
    expect(error.toolName).toBe('records_get');
    expect(error.errorText).toContain('Invalid input');
    expect(chunks.at(-1)).toEqual({ type: 'finish', finishReason: 'stop' });
  });

  it('a throwing custom tool gives tool-output-error with its message', async () => {
    const f = chatFixture(scriptedModel([toolStep('weather_today', { city: 'Paris' }), textStep('No weather.')]).model, {
      handler: {
        tools: {
          custom: {
            'weather.today': {
              description: 'Weather',
              inputSchema: z.object({ city: z.string() }),
              execute: () => {
                throw new Error('weather service is down');
              },
            },
          },
        },
      },
    });
    const { chunks } = await turn(f);
    expect(chunks.find((c) => c.type === 'tool-output-error')).toMatchObject({ errorText: 'weather service is down' });
    expect(chunks.at(-1)).toEqual({ type: 'finish', finishReason: 'stop' });
  });

  it('a model that calls tools forever makes exactly 5 model calls; the last is offered no tool', async () => {
    const scripted = scriptedModel([toolStep('schema_list', {})]);
    const f = chatFixture(scripted.model);
    const { chunks } = await turn(f);
    expect(scripted.calls).toHaveLength(5);
    expect(scripted.calls.map((c) => c.toolChoice?.type)).toEqual(['auto', 'auto', 'auto', 'auto', 'none']);
    expect(chunks.filter((c) => c.type === 'start-step')).toHaveLength(5);
    expect(chunks.at(-1)!.type).toBe('finish');
  });

  it('the allow-list trims what the provider is offered', async () => {
    const scripted = scriptedModel([textStep('ok')]);
    const f = chatFixture(scripted.model, { handler: { tools: { allow: READ_ONLY_TOOLS } } });
    await turn(f);
    const offered = (scripted.calls[0]!.tools ?? []).map((t) => t.name).sort();
    expect(offered).toEqual(['records_get', 'records_query', 'schema_describe', 'schema_list', 'user_current']);
  });
});
