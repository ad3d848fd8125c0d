import { anthropic } from '@ai-sdk/anthropic';
import { dynamicTool, tool, type LanguageModel, type ToolSet } from 'ai';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { preparePrompt } from './prepare-prompt.js';
import { streamModel, type StreamOutcome } from './stream-model.js';
import { scriptedModel, STEP_USAGE, textStep, toolStep } from './testing/scripted-model.js';
import { chunkTypes, decodeSse, readBytes, streamedText } from './testing/sse.js';
import { turnHarness, type HarnessOptions } from './testing/turn-harness.js';
import type { Turn } from './turn.js';
import type { InterruptKind } from './turn-ending.js';

const lookupTool = (execute: (input: { q: string }, options: { abortSignal?: AbortSignal }) => Promise<unknown> = async () => ({ found: 1 })): ToolSet => ({
  lookup: tool({ description: 'look up', inputSchema: z.object({ q: z.string() }), execute }),
});

/** Admits a submit, prepares it and starts its model phase while reading the output; `finish()` ends the output. */
async function startStream(model: LanguageModel, options: HarnessOptions = {}) {
  const h = turnHarness(options);
  const chatId = await h.createChat();
  const turn: Turn = await h.admit({ chatId, userMessageId: 'u1', content: 'hi' }, model);
  const prompt = await preparePrompt(turn, h.runtime);
  const reading = readBytes(turn.output.response);
  const outcome = streamModel(turn, prompt, h.runtime);
  return {
    h,
    turn,
    outcome,
    async finish(): Promise<{ outcome: StreamOutcome; body: ReturnType<typeof decodeSse> }> {
      const result = await outcome;
      await turn.output.end();
      await turn.lease.release();
      return { outcome: result, body: decodeSse(await reading) };
    },
  };
}


describe('streamModel: a model that finishes', () => {
  it('finishes with the finish reason, the steps and the usage summed over them; sends every chunk but finish', async () => {
    const m = scriptedModel([toolStep('lookup', { q: 'x' }), textStep('The answer is one.')]);
    const run = await startStream(m.model, { tools: lookupTool() });
    const { outcome, body } = await run.finish();
    expect(outcome).toEqual({
      kind: 'finished',
      finishReason: 'stop',
      steps: 2,
      usage: expect.objectContaining({ inputTokens: 2 * STEP_USAGE.inputTokens, outputTokens: 2 * STEP_USAGE.outputTokens, totalTokens: 2 * STEP_USAGE.totalTokens }),
    });
    // `start` is the turn's, `finish` the settle phase's: neither is sent here.
    expect(chunkTypes(body)).toEqual([
      'start-step',
      'tool-input-available',
      'tool-output-available',
      'finish-step',
      'start-step',
      'text-start',
      'text-delta',
      'text-end',
      'finish-step',
    ]);
    expect(streamedText(body)).toBe('The answer is one.');
    expect(run.turn.answer.text()).toBe('The answer is one.');
    expect(run.turn.answer.toolCalls()).toEqual([expect.objectContaining({ toolName: 'lookup' })]);
    expect(run.h.errors).toEqual([]);
  });

  it('makes at most five model calls; the fifth is offered no tool', async () => {
    const m = scriptedModel([toolStep('lookup', { q: 'again' })]);
    const run = await startStream(m.model, { tools: lookupTool() });
    const { outcome } = await run.finish();
    expect(m.calls).toHaveLength(5);
    expect(m.calls.map((call) => call.toolChoice?.type)).toEqual(['auto', 'auto', 'auto', 'auto', 'none']);
    expect(outcome).toMatchObject({ kind: 'finished', steps: 5 });
  });

  it('marks the chunks and the stored part of a dynamic tool of the turn’s tool set as dynamic, as the SDK does', async () => {
    const tools: ToolSet = {
      lookup: dynamicTool({ description: 'look up', inputSchema: z.object({ q: z.string() }), execute: async () => ({ found: 1 }) }),
    };
    const m = scriptedModel([toolStep('lookup', { q: 'x' }), textStep('done')]);
    const run = await startStream(m.model, { tools });
    const { body } = await run.finish();
    const toolChunks = body.chunks.filter((c) => c.type.startsWith('tool-'));
    expect(toolChunks.map((c) => [c.type, c.dynamic])).toEqual([
      ['tool-input-available', true],
      ['tool-output-available', true],
    ]);
    expect(run.turn.answer.parts.find((p) => p.type === 'dynamic-tool')).toMatchObject({ toolName: 'lookup', state: 'output-available' });
  });

  it('passes the system prompt, the prepared messages and the turn’s abort signal to the model', async () => {
    const m = scriptedModel([textStep('ok')]);
    const run = await startStream(m.model, { system: 'Be brief.' });
    await run.finish();
    const prompt = m.calls[0]!.prompt;
    expect(prompt[0]).toEqual({ role: 'system', content: 'Be brief.' });
    expect(prompt.at(-1)).toMatchObject({ role: 'user', content: [{ type: 'text', text: 'hi' }] });
    expect(m.calls[0]!.abortSignal).toBeDefined();
    run.turn.interrupt('ended');
    expect(m.calls[0]!.abortSignal!.aborted).toBe(true);
  });
});

describe('streamModel: an error ends the phase at once', () => {
  it('an error part followed by more output: nothing after it is sent or kept, the outcome is failed, the error reported', async () => {
    const failure = new Error('overloaded');
    const m = scriptedModel([
      [
        { type: 'text-start', id: 't' },
        { type: 'text-delta', id: 't', delta: 'before ' },
        { type: 'error', error: failure },
        { type: 'text-delta', id: 't', delta: 'after' },
        { type: 'text-end', id: 't' },
        { type: 'finish', finishReason: 'stop', usage: STEP_USAGE },
      ],
    ]);
    const run = await startStream(m.model);
    const { outcome, body } = await run.finish();
    expect(outcome).toEqual({ kind: 'failed', error: failure, stage: 'model' });
    expect(chunkTypes(body)).toEqual(['start-step', 'text-start', 'text-delta']);
    expect(streamedText(body)).toBe('before ');
    expect(run.turn.answer.text()).toBe('before ');
    expect(run.h.errors).toEqual([{ error: failure, context: expect.objectContaining({ stage: 'model', userId: 'alice' }) }]);
  });

  // The SDK's default `onError` writes every provider error to the console; library code never does.
  it('writes nothing to the console for a provider error', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const m = scriptedModel([[{ type: 'error', error: new Error('overloaded') }]]);
      const { outcome } = await (await startStream(m.model)).finish();
      expect(outcome).toMatchObject({ kind: 'failed' });
      expect(consoleError).not.toHaveBeenCalled();
    } finally {
      consoleError.mockRestore();
    }
  });

  it('a provider stream that dies fails the phase with the provider’s error', async () => {
    const m = scriptedModel([textStep('one two three four')], { failAfter: 3, failWith: new Error('socket hang up') });
    const run = await startStream(m.model);
    const { outcome, body } = await run.finish();
    expect(outcome).toMatchObject({ kind: 'failed', stage: 'model' });
    expect(String((outcome as { error: unknown }).error)).toContain('socket hang up');
    expect(body.chunks.some((c) => c.type === 'finish-step')).toBe(false);
    expect(run.h.errors.map((e) => e.context.stage)).toEqual(['model']);
  });
});

describe('streamModel: an interrupted turn', () => {
  it.each<InterruptKind>(['stop', 'disconnect', 'lost-lease'])('interrupt(%s) mid-answer aborts the model call and ends interrupted with that kind', async (kind) => {
    const m = scriptedModel([textStep('one two three four five six')]);
    m.pauseAt(4);
    const run = await startStream(m.model);
    await m.emitted(4);
    run.turn.interrupt(kind);
    const { outcome, body } = await run.finish();
    expect(outcome).toMatchObject({ kind: 'interrupted', interrupt: kind, steps: 0 });
    expect(m.aborted).toBe(true);
    // What was streamed before the interrupt is what the answer keeps; nothing after the pause arrives.
    expect(streamedText(body)).toMatch(/^one two (three )?$/);
    expect(run.turn.answer.text()).toBe(streamedText(body));
    expect(body.chunks.some((c) => c.type === 'text-end' || c.type === 'finish-step' || c.type === 'abort')).toBe(false);
    expect(run.h.errors).toEqual([]);
  });

  it('an interrupt in a later step keeps the usage and steps of the finished ones', async () => {
    const m = scriptedModel([toolStep('lookup', { q: 'x' }), textStep('one two three')]);
    m.pauseAt(4); // tool-call, finish, text-start, first delta: then pause
    const run = await startStream(m.model, { tools: lookupTool() });
    await m.emitted(4);
    run.turn.interrupt('stop');
    const { outcome } = await run.finish();
    expect(outcome).toMatchObject({ kind: 'interrupted', interrupt: 'stop', steps: 1, usage: { inputTokens: STEP_USAGE.inputTokens } });
  });

  it('a turn interrupted before its model phase makes no model call', async () => {
    const m = scriptedModel([textStep('never')]);
    const h = turnHarness();
    const chatId = await h.createChat();
    const turn = await h.admit({ chatId, userMessageId: 'u1', content: 'hi' }, m.model);
    const prompt = await preparePrompt(turn, h.runtime);
    turn.interrupt('disconnect');
    expect(await streamModel(turn, prompt, h.runtime)).toMatchObject({ kind: 'interrupted', interrupt: 'disconnect', steps: 0 });
    expect(m.calls).toHaveLength(0);
    await turn.lease.release();
  });

  it('a running tool gets the turn’s abort signal', async () => {
    let toolSignal: AbortSignal | undefined;
    let started!: () => void;
    const toolStarted = new Promise<void>((resolve) => (started = resolve));
    const m = scriptedModel([toolStep('lookup', { q: 'x' }), textStep('done')]);
    const run = await startStream(m.model, {
      tools: lookupTool(async (_input, { abortSignal }) => {
        toolSignal = abortSignal;
        started();
        await new Promise((resolve) => abortSignal?.addEventListener('abort', resolve));
        return { aborted: true };
      }),
    });
    await toolStarted;
    run.turn.interrupt('stop');
    const { outcome } = await run.finish();
    expect(toolSignal?.aborted).toBe(true);
    expect(outcome).toMatchObject({ kind: 'interrupted', interrupt: 'stop' });
  });
});

describe('streamModel: provider timeouts (fake clock: only the watchdog’s time passes)', () => {
  const FIRST_BYTE = 1_000;
  const IDLE = 300;
  const limits = { firstByteTimeoutMs: FIRST_BYTE, idleTimeoutMs: IDLE };

  beforeEach(() => {
    // setImmediate stays real: the scripted model and the streams keep running; no time passes unless advanced.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** Lets the streams run (real macrotasks) without moving the fake clock. */
  const settle = async () => {
    for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
  };
  /** Waits (real macrotasks, clock still) until `check` holds; vi.waitFor would advance the fake clock. */
  const until = async (check: () => boolean) => {
    for (let i = 0; i < 1_000 && !check(); i++) await new Promise((resolve) => setImmediate(resolve));
    expect(check()).toBe(true);
  };
  const state = (outcome: Promise<StreamOutcome>) => Promise.race([outcome, settle().then(() => 'still running' as const)]);

  it('no part at all within firstByteTimeoutMs: interrupted by first-byte-timeout, the call aborted', async () => {
    const m = scriptedModel([textStep('never sent')]);
    m.pauseAt(0);
    const run = await startStream(m.model, limits);
    await until(() => m.calls.length === 1);
    await settle();
    vi.advanceTimersByTime(FIRST_BYTE - 1);
    expect(await state(run.outcome)).toBe('still running');
    vi.advanceTimersByTime(1);
    const { outcome } = await run.finish();
    expect(m.aborted).toBe(true);
    expect(outcome).toMatchObject({ kind: 'interrupted', interrupt: 'first-byte-timeout', steps: 0 });
  });

  it('no first part of a later model call within firstByteTimeoutMs: first-byte-timeout', async () => {
    const m = scriptedModel([toolStep('lookup', { q: 'x' }), textStep('never sent')]);
    m.pauseAt(2); // the second call sends nothing
    const run = await startStream(m.model, { tools: lookupTool(), ...limits });
    await until(() => m.calls.length === 2);
    await settle();
    vi.advanceTimersByTime(FIRST_BYTE - 1);
    expect(await state(run.outcome)).toBe('still running');
    vi.advanceTimersByTime(1);
    const { outcome } = await run.finish();
    expect(m.aborted).toBe(true);
    expect(outcome).toMatchObject({ kind: 'interrupted', interrupt: 'first-byte-timeout', steps: 1 });
  });

  it('the provider stops sending after its first parts: idle-timeout, with what was streamed kept in the answer', async () => {
    const m = scriptedModel([textStep('one two three')]);
    m.pauseAt(2);
    const run = await startStream(m.model, limits);
    await m.emitted(2);
    await until(() => run.turn.answer.text() === 'one ');
    vi.advanceTimersByTime(IDLE - 1);
    expect(await state(run.outcome)).toBe('still running');
    vi.advanceTimersByTime(1);
    const { outcome, body } = await run.finish();
    expect(m.aborted).toBe(true);
    expect(outcome).toMatchObject({ kind: 'interrupted', interrupt: 'idle-timeout' });
    expect(streamedText(body)).toBe('one ');
  });

  it('time spent running a tool is not provider time', async () => {
    let finishTool!: () => void;
    let started!: () => void;
    const toolStarted = new Promise<void>((resolve) => (started = resolve));
    const m = scriptedModel([toolStep('lookup', { q: 'x' }), textStep('done')]);
    const run = await startStream(m.model, {
      tools: lookupTool(async () => {
        started();
        await new Promise<void>((resolve) => (finishTool = resolve));
        return { slow: true };
      }),
      ...limits,
    });
    await toolStarted;
    vi.advanceTimersByTime(10 * FIRST_BYTE);
    expect(await state(run.outcome)).toBe('still running');
    finishTool();
    const { outcome } = await run.finish();
    expect(outcome).toMatchObject({ kind: 'finished', steps: 2 });
  });

  // Bug: the watchdog pauses on every `tool-call`, including one the provider runs itself (web search, code
  // execution): its result comes from the same provider stream, so a provider that stalls there is never timed
  // out and holds the turn and the chat for ever.
  it('a provider that stalls while running its own tool still times out', async () => {
    const m = scriptedModel([
      [
        { type: 'text-start', id: 't' },
        { type: 'text-delta', id: 't', delta: 'searching ' },
        { type: 'tool-call', toolCallId: 'ws1', toolName: 'web_search', input: '{"query":"x"}', providerExecuted: true },
        { type: 'tool-result', toolCallId: 'ws1', toolName: 'web_search', result: [], providerExecuted: true },
        { type: 'finish', finishReason: 'stop', usage: STEP_USAGE },
      ],
    ]);
    m.pauseAt(3); // the provider never sends its search result
    const run = await startStream(m.model, { tools: { web_search: anthropic.tools.webSearch_20250305() } as ToolSet, ...limits });
    await m.emitted(3);
    await settle();
    vi.advanceTimersByTime(10 * FIRST_BYTE);
    const settled = await state(run.outcome);
    run.turn.interrupt('ended');
    await run.finish();
    expect(settled).toMatchObject({ kind: 'interrupted', interrupt: 'idle-timeout' });
  });
});

describe('streamModel: the same steps through streamText (the AI SDK’s telemetry on)', () => {
  it('gives the same outcome and the same chunks as chatwire’s model loop', async () => {
    const script = () => scriptedModel([toolStep('lookup', { q: 'x' }), textStep('The answer is one.')]).model;
    const loop = await (await startStream(script(), { tools: lookupTool() })).finish();
    const sdk = await (await startStream(script(), { tools: lookupTool(), aiSdkTelemetry: { isEnabled: true, recordInputs: false, recordOutputs: false } })).finish();
    expect(sdk.outcome).toEqual(loop.outcome);
    expect(sdk.body).toEqual(loop.body);
    expect(chunkTypes(loop.body)).toContain('tool-output-available');
  });
});
