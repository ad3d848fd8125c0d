import { APICallError } from '@ai-sdk/provider';
import { dynamicTool, jsonSchema, streamText, tool, type ModelMessage, type ToolSet } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { scriptedModel, STEP_USAGE, textStep, toolStep, type Script } from '../turn/testing/scripted-model.js';
import { runModelLoop, type LoopPart, type ModelLoopOptions } from './run-model-loop.js';

const HISTORY: ModelMessage[] = [{ role: 'user', content: 'hello' }];

const tools: ToolSet = {
  add: tool({ inputSchema: z.object({ a: z.number(), b: z.number() }), execute: async ({ a, b }) => a + b }),
  fail: tool({
    inputSchema: z.object({}),
    execute: async (): Promise<string> => {
      throw new Error('tool broke');
    },
  }),
  count: tool({
    inputSchema: z.object({}),
    async *execute() {
      yield 1;
      yield 2;
    },
  }),
  lookup: dynamicTool({ inputSchema: jsonSchema({ type: 'object' }), execute: async () => ({ found: true }) }),
};

function options(model: ModelLoopOptions['model'], over: Partial<ModelLoopOptions> = {}): ModelLoopOptions {
  return { model, system: 'be brief', history: async () => HISTORY, tools, maxSteps: 5, abortSignal: new AbortController().signal, maxRetries: 0, ...over };
}

async function run(model: ModelLoopOptions['model'], over: Partial<ModelLoopOptions> = {}): Promise<LoopPart[]> {
  const parts: LoopPart[] = [];
  await runModelLoop(options(model, over), (part) => void parts.push(part));
  return parts;
}

/** The SDK's own full stream for the same script: the reference the loop must match. */
async function sdkParts(scripts: Script[]): Promise<LoopPart[]> {
  const { model } = scriptedModel(scripts);
  const result = streamText({ model, system: 'be brief', messages: HISTORY, tools, stopWhen: ({ steps }) => steps.length === 5, maxRetries: 0, onError: () => undefined });
  const parts: LoopPart[] = [];
  for await (const part of result.fullStream) parts.push(part);
  return parts;
}

/**
 * What the comparison looks at: everything but the SDK's generated ids, timestamps and request bodies.
 * Results of tools that run at the same time come in the order they finish, which depends on microtask
 * scheduling (the SDK's stream plumbing adds turns): each run of consecutive results is compared by call id.
 */
function comparable(parts: LoopPart[]): unknown[] {
  const isResult = (part: LoopPart) => part.type === 'tool-result' || part.type === 'tool-error';
  const ordered: LoopPart[] = [];
  for (let i = 0; i < parts.length; ) {
    let j = i;
    while (j < parts.length && isResult(parts[j]!)) j++;
    if (j > i) {
      ordered.push(...parts.slice(i, j).sort((x, y) => ((x as { toolCallId: string }).toolCallId < (y as { toolCallId: string }).toolCallId ? -1 : (x as { toolCallId: string }).toolCallId > (y as { toolCallId: string }).toolCallId ? 1 : 0)));
      i = j;
    } else ordered.push(parts[i++]!);
  }
  return ordered
    .filter((part) => part.type !== 'start' && part.type !== 'raw')
    .map((part) => {
      const { request: _request, response: _response, providerMetadata: _metadata, ...rest } = part as Record<string, unknown>;
      if ('error' in rest) rest.error = rest.error instanceof Error ? rest.error.message : rest.error;
      return rest;
    });
}

describe('runModelLoop', () => {
  it('streams the same parts as streamText for text, valid, failing, streaming, dynamic, unknown and invalid tool calls', async () => {
    const scripts: Script[] = [
      [
        ...textStep('let me check ').slice(0, -1),
        ...toolStep('add', { a: 1, b: 2 }, 'c1').slice(0, -1),
        ...toolStep('fail', {}, 'c2').slice(0, -1),
        ...toolStep('count', {}, 'c3').slice(0, -1),
        ...toolStep('lookup', { q: 1 }, 'c4').slice(0, -1),
        ...toolStep('nope', {}, 'c5').slice(0, -1),
        ...toolStep('add', '{"a":"x"}', 'c6'),
      ],
      textStep('the answer is 3'),
    ];
    const { model } = scriptedModel(scripts);
    expect(comparable(await run(model))).toEqual(comparable(await sdkParts(scripts)));
  });

  it('sends the next step what streamText sends: the assistant tool calls and every tool result', async () => {
    const scripts: Script[] = [toolStep('add', { a: 1, b: 2 }), toolStep('fail', {}, 'c2'), textStep('done')];
    const ours = scriptedModel(scripts);
    await run(ours.model);
    const sdk = scriptedModel(scripts);
    for await (const _ of streamText({ model: sdk.model, system: 'be brief', messages: HISTORY, tools, maxRetries: 0, stopWhen: ({ steps }) => steps.length === 5 }).fullStream);
    expect(ours.calls.map((call) => call.prompt)).toEqual(sdk.calls.map((call) => call.prompt));
    expect(ours.calls).toHaveLength(3);
  });

  it('asks for the history once for a text answer, and again only when tools ran (it keeps no copy meanwhile)', async () => {
    let asked = 0;
    const history = async () => (asked++, HISTORY);
    await run(scriptedModel([textStep('hi')]).model, { history });
    expect(asked).toBe(1);
    asked = 0;
    await run(scriptedModel([toolStep('add', { a: 1, b: 2 }), textStep('3')]).model, { history });
    // step 1's call, the tool's `messages`, step 2's call.
    expect(asked).toBe(3);
  });

  it('stops after maxSteps model calls, finishing with the last step’s reason', async () => {
    const scripted = scriptedModel([toolStep('add', { a: 1, b: 2 })]);
    const parts = await run(scripted.model, { maxSteps: 2 });
    expect(scripted.calls).toHaveLength(2);
    expect(parts.at(-1)).toMatchObject({ type: 'finish', finishReason: 'tool-calls', totalUsage: { inputTokens: 20, outputTokens: 10, totalTokens: 30 } });
  });

  it('ends with an abort part, without waiting, when the turn aborts while a tool ignores its signal', async () => {
    const controller = new AbortController();
    const hang: ToolSet = { hang: tool({ inputSchema: z.object({}), execute: () => new Promise(() => undefined) }) };
    const parts: LoopPart[] = [];
    const loop = runModelLoop(options(scriptedModel([toolStep('hang', {})]).model, { tools: hang, abortSignal: controller.signal }), (part) => {
      parts.push(part);
      if (part.type === 'tool-call') setTimeout(() => controller.abort(), 5);
    });
    await loop;
    expect(parts.at(-1)).toEqual({ type: 'abort' });
    expect(parts.some((part) => part.type === 'tool-result' || part.type === 'finish')).toBe(false);
  });

  it('a sink that returns false ends the loop and cancels the provider stream', async () => {
    const scripted = scriptedModel([textStep('one two three four five')]);
    const parts: LoopPart[] = [];
    await runModelLoop(options(scripted.model), (part) => (parts.push(part), part.type !== 'text-start'));
    expect(parts.map((part) => part.type)).toEqual(['start-step', 'text-start']);
    expect(parts.some((part) => part.type === 'finish')).toBe(false);
  });

  it('retries a retryable provider error, then streams', async () => {
    const scripted = scriptedModel([textStep('ok')]);
    let attempts = 0;
    const doStream = scripted.model.doStream.bind(scripted.model);
    scripted.model.doStream = async (call) => {
      if (attempts++ === 0) {
        throw new APICallError({ message: 'overloaded', url: 'http://p', requestBodyValues: {}, statusCode: 503, responseHeaders: { 'retry-after-ms': '1' }, isRetryable: true });
      }
      return doStream(call);
    };
    const parts = await run(scripted.model, { maxRetries: 2 });
    expect(attempts).toBe(2);
    expect(parts.at(-1)).toMatchObject({ type: 'finish', finishReason: 'stop' });
  });

  it('hands over a part of a type the v2 specification lacks as an error part naming it, never drops it', async () => {
    const approval = { type: 'tool-approval-request', approvalId: 'ap-1', toolCallId: 'c1' } as unknown as Script[number];
    const [start, ...rest] = textStep('hello there');
    const parts = await run(scriptedModel([[start!, approval, ...rest]]).model);
    const error = parts.find((part) => part.type === 'error') as { error: Error } | undefined;
    expect(error?.error.message).toContain("sent a 'tool-approval-request' part, which chatwire does not support");
    expect(error?.error.message).toContain("'mock-provider/mock-model-id' (specification v2)");
    expect(parts.map((part) => part.type).indexOf('error')).toBe(parts.map((part) => part.type).indexOf('text-start') + 1);
  });

  it('a finish reason `unknown`, or none at all, is handed over as `other`', async () => {
    const unknown: Script = [...textStep('hi').slice(0, -1), { type: 'finish', finishReason: 'unknown', usage: STEP_USAGE }];
    const noFinish: Script = textStep('cut').slice(0, -1);
    for (const script of [unknown, noFinish]) {
      const parts = await run(scriptedModel([script]).model);
      expect(parts.filter((part) => part.type === 'finish-step' || part.type === 'finish').map((part) => [part.type, (part as { finishReason: string }).finishReason])).toEqual([
        ['finish-step', 'other'],
        ['finish', 'other'],
      ]);
    }
  });

  it('reports a provider failure after the retries as an error part', async () => {
    const scripted = scriptedModel([textStep('ok')]);
    scripted.model.doStream = async () => {
      throw new APICallError({ message: 'bad key', url: 'http://p', requestBodyValues: {}, statusCode: 401, isRetryable: false });
    };
    const parts = await run(scripted.model, { maxRetries: 2 });
    expect(parts).toHaveLength(1);
    expect(parts[0]).toMatchObject({ type: 'error' });
    expect(APICallError.isInstance((parts[0] as { error: unknown }).error)).toBe(true);
  });
});
