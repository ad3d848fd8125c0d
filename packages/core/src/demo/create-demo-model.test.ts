import { generateText, stepCountIs, streamText, tool, type ModelMessage, type ToolSet } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createDemoModel } from './create-demo-model.js';

const NOTES = [
  { recordId: 'n1', data: { title: 'A', body: '' }, createdAt: '2025-01-01T00:00:00.000Z', updatedAt: '2025-01-01T00:00:00.000Z' },
  { recordId: 'n2', data: { title: 'B', body: '' }, createdAt: '2025-01-01T00:00:01.000Z', updatedAt: '2025-01-01T00:00:01.000Z' },
];

/** Stand-ins with the input shapes of the real chat tools. */
function chatTools(calls: Array<{ name: string; input: unknown }>, overrides: { queryFails?: boolean } = {}): ToolSet {
  return {
    records_query: tool({
      description: 'filter and list records',
      inputSchema: z.object({
        collection: z.string(),
        filter: z.record(z.string(), z.unknown()).optional(),
        orderBy: z.string().optional(),
        limit: z.number().optional(),
      }),
      execute: async (input) => {
        calls.push({ name: 'records_query', input });
        if (overrides.queryFails) throw new Error('collection notes is not readable');
        return { records: NOTES, nextCursor: null };
      },
    }),
    records_create: tool({
      description: 'create a record',
      inputSchema: z.object({ collection: z.string(), data: z.record(z.string(), z.unknown()) }),
      execute: async (input) => {
        calls.push({ name: 'records_create', input });
        return { recordId: 'n3', data: input.data, createdAt: '', updatedAt: '' };
      },
    }),
    user_current: tool({
      description: "look up the caller's user record",
      inputSchema: z.object({}),
      execute: async (input) => {
        calls.push({ name: 'user_current', input });
        return { userId: 'user-1', role: 'member' };
      },
    }),
  };
}

async function chat(prompt: string, tools?: ToolSet, model = createDemoModel({ chunkDelayMs: 0 })) {
  const result = streamText({ model, prompt, maxRetries: 0, stopWhen: stepCountIs(5), ...(tools ? { tools } : {}) });
  const parts: string[] = [];
  for await (const part of result.fullStream) parts.push(part.type);
  return { text: await result.text, steps: await result.steps, usage: await result.totalUsage, parts };
}

describe('createDemoModel: text replies', () => {
  it('echoes deterministically, one text-delta per word, with deterministic usage', async () => {
    const first = await chat('hello there, demo');
    const second = await chat('hello there, demo');
    expect(first.text).toBe(
      'You said: "hello there, demo". I am the chatwire demo model, so I answer from a script; configure a provider for real answers.',
    );
    expect(first.parts.filter((t) => t === 'text-delta')).toHaveLength(first.text.split(' ').length);
    expect(first.parts.slice(0, 4)).toEqual(['start', 'start-step', 'text-start', 'text-delta']);
    expect(first.steps[0]!.finishReason).toBe('stop');
    expect(first.usage.outputTokens).toBe(first.text.split(' ').length);
    expect(first.usage.inputTokens).toBeGreaterThan(0);
    expect(first.usage).toEqual({ inputTokens: 3, outputTokens: 23, totalTokens: 26, reasoningTokens: undefined, cachedInputTokens: undefined });
    expect([second.text, second.usage, second.parts]).toEqual([first.text, first.usage, first.parts]);
  });

  it('works through generateText (doGenerate) too', async () => {
    const calls: Array<{ name: string; input: unknown }> = [];
    const result = await generateText({
      model: createDemoModel(),
      prompt: 'please list my notes',
      tools: chatTools(calls),
      stopWhen: stepCountIs(5),
    });
    expect(calls).toEqual([{ name: 'records_query', input: { collection: 'notes' } }]);
    expect(result.text).toBe('You have 2 notes: A, B.');
  });
});

describe('createDemoModel: tool calls', () => {
  it('lists notes through records_query, then summarises the result', async () => {
    const calls: Array<{ name: string; input: unknown }> = [];
    const turn = await chat('Show me my notes', chatTools(calls));
    expect(calls).toEqual([{ name: 'records_query', input: { collection: 'notes' } }]);
    expect(turn.steps).toHaveLength(2);
    expect(turn.steps[0]!.toolCalls.map((c) => [c.toolName, c.input])).toEqual([['records_query', { collection: 'notes' }]]);
    expect(turn.steps[0]!.finishReason).toBe('tool-calls');
    expect(turn.text).toBe('You have 2 notes: A, B.');
    expect(turn.parts).toContain('tool-input-start');
    expect(turn.parts).toContain('tool-result');
  });

  it('creates a note titled X through records_create', async () => {
    const calls: Array<{ name: string; input: unknown }> = [];
    const turn = await chat('Create a note titled "Groceries".', chatTools(calls));
    expect(calls).toEqual([{ name: 'records_create', input: { collection: 'notes', data: { title: 'Groceries', body: '' } } }]);
    expect(turn.text).toBe('Created note "Groceries".');
  });

  it('answers "who am I" through user_current', async () => {
    const calls: Array<{ name: string; input: unknown }> = [];
    const turn = await chat("who am I?", chatTools(calls));
    expect(calls).toEqual([{ name: 'user_current', input: {} }]);
    expect(turn.text).toBe('You are signed in as user-1.');
  });

  it('reports a failing tool with its message', async () => {
    const turn = await chat('list notes', chatTools([], { queryFails: true }));
    expect(turn.text).toBe('The records_query tool failed: collection notes is not readable');
  });

  it('says it has no tools when records_query is not offered', async () => {
    const calls: Array<{ name: string; input: unknown }> = [];
    const { records_create, user_current } = chatTools(calls);
    const turn = await chat('list my notes', { records_create: records_create!, user_current: user_current! });
    expect(calls).toEqual([]);
    expect(turn.steps).toHaveLength(1);
    expect(turn.text).toBe("I can't look at your notes: no tools are available to me in this chat.");
  });

  it('numbers tool call ids after the calls already in the history', async () => {
    const calls: Array<{ name: string; input: unknown }> = [];
    const first = streamText({ model: createDemoModel({ chunkDelayMs: 0 }), prompt: 'list notes', tools: chatTools(calls), stopWhen: stepCountIs(5) });
    const history: ModelMessage[] = [{ role: 'user', content: 'list notes' }, ...(await first.response).messages, { role: 'user', content: 'show my notes again' }];
    const second = streamText({ model: createDemoModel({ chunkDelayMs: 0 }), messages: history, tools: chatTools(calls), stopWhen: stepCountIs(5) });
    const ids = [(await first.steps)[0]!.toolCalls[0]!.toolCallId, (await second.steps)[0]!.toolCalls[0]!.toolCallId];
    expect(ids).toEqual(['call_demo_1', 'call_demo_2']);
    expect(await second.text).toBe('You have 2 notes: A, B.');
  });
});

describe('createDemoModel: abort', () => {
  it('stops streaming when the signal fires and ends the turn as aborted', async () => {
    const controller = new AbortController();
    let aborted = false;
    const result = streamText({
      model: createDemoModel({ chunkDelayMs: 5 }),
      prompt: 'tell me something long',
      abortSignal: controller.signal,
      onAbort: () => {
        aborted = true;
      },
    });
    const parts: string[] = [];
    for await (const part of result.fullStream) {
      parts.push(part.type);
      if (part.type === 'text-delta' && parts.filter((t) => t === 'text-delta').length === 2) controller.abort();
    }
    expect(parts.filter((t) => t === 'text-delta')).toHaveLength(2);
    expect(parts.at(-1)).toBe('abort');
    expect(parts).not.toContain('finish');
    expect(aborted).toBe(true);
  });

  it('errors its raw stream with an AbortError even while nobody is reading', async () => {
    const controller = new AbortController();
    const model = createDemoModel({ chunkDelayMs: 0 });
    const { stream } = await model.doStream({ prompt: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], abortSignal: controller.signal });
    const reader = stream.getReader();
    expect((await reader.read()).value).toEqual({ type: 'stream-start', warnings: [] });
    controller.abort();
    await expect(reader.read()).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('rejects a call whose signal is already aborted', async () => {
    const model = createDemoModel();
    const prompt = [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'hi' }] }];
    await expect(model.doStream({ prompt, abortSignal: AbortSignal.abort() })).rejects.toMatchObject({ name: 'AbortError' });
    await expect(model.doGenerate({ prompt, abortSignal: AbortSignal.abort() })).rejects.toMatchObject({ name: 'AbortError' });
  });
});
