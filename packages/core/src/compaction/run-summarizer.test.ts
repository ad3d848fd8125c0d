import { describe, expect, it } from 'vitest';
import { runSummarizer } from './run-summarizer.js';
import { user } from './testing/history-fixtures.js';

const input = { messages: [user('hi')] };

describe('runSummarizer', () => {
  it('returns the trimmed text and passes the previous summary and an abort signal', async () => {
    let seen: unknown;
    const run = await runSummarizer(async (args) => {
      seen = args;
      return '  the summary \n';
    }, { ...input, previousSummary: 'before' }, { timeoutMs: 1000 });
    expect(run).toEqual({ ok: true, text: 'the summary' });
    expect(seen).toMatchObject({ messages: input.messages, previousSummary: 'before' });
    expect((seen as { abortSignal: AbortSignal }).abortSignal).toBeInstanceOf(AbortSignal);
  });

  it('reports a thrown error without throwing', async () => {
    const run = await runSummarizer(async () => {
      throw new Error('provider said 500');
    }, input, { timeoutMs: 1000 });
    expect(run).toEqual({ ok: false, error: 'summarizer failed: provider said 500' });
  });

  it('reports a synchronous throw too', async () => {
    const run = await runSummarizer(() => {
      throw new Error('sync');
    }, input, { timeoutMs: 1000 });
    expect(run).toEqual({ ok: false, error: 'summarizer failed: sync' });
  });

  it('times out a summarizer that never answers, and aborts its signal', async () => {
    let signal: AbortSignal | undefined;
    const run = await runSummarizer((args) => {
      signal = args.abortSignal;
      return new Promise<string>(() => {});
    }, input, { timeoutMs: 20 });
    expect(run).toEqual({ ok: false, error: 'summarizer timed out after 20 ms' });
    expect(signal?.aborted).toBe(true);
  });

  it('honours the caller abort signal', async () => {
    const controller = new AbortController();
    const pending = runSummarizer(() => new Promise<string>(() => {}), input, { timeoutMs: 60000, abortSignal: controller.signal });
    controller.abort(new Error('client went away'));
    expect(await pending).toEqual({ ok: false, error: "summarizer aborted by the caller's abort signal: client went away" });
  });

  it('does not call the summarizer when already aborted', async () => {
    let calls = 0;
    const run = await runSummarizer(async () => {
      calls++;
      return 'x';
    }, input, { timeoutMs: 1000, abortSignal: AbortSignal.abort() });
    expect(calls).toBe(0);
    expect(run.ok).toBe(false);
  });

  it('treats an empty answer as a failure', async () => {
    expect(await runSummarizer(async () => '  ', input, { timeoutMs: 1000 })).toEqual({ ok: false, error: 'summarizer returned an empty summary' });
  });
});
