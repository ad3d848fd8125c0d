import type { ModelMessage } from 'ai';
import type { Summarizer } from './compaction-types.js';

export type SummarizerRun = { ok: true; text: string } | { ok: false; error: string };

export interface RunSummarizerOptions {
  timeoutMs: number;
  abortSignal?: AbortSignal;
}

/**
 * Calls the summarizer once with its own abort signal, which fires on timeout or when `abortSignal` fires. Never
 * throws: a thrown error, a timeout, an abort or an empty answer all come back as `{ ok: false, error }`. The
 * result does not wait for a summarizer that ignores its abort signal.
 */
export async function runSummarizer(
  summarize: Summarizer,
  input: { messages: ModelMessage[]; previousSummary?: string },
  options: RunSummarizerOptions,
): Promise<SummarizerRun> {
  if (options.abortSignal?.aborted) {
    return { ok: false, error: `summarizer not run: ${abortText(options.abortSignal.reason)}` };
  }
  const controller = new AbortController();
  let stop: (error: Error) => void = () => {};
  const stopped = new Promise<never>((_, reject) => {
    stop = reject;
  });
  const halt = (message: string) => {
    const error = new Error(message);
    controller.abort(error);
    stop(error);
  };
  const timer = setTimeout(() => halt(`summarizer timed out after ${options.timeoutMs} ms`), options.timeoutMs);
  const onAbort = () => halt(`summarizer ${abortText(options.abortSignal?.reason)}`);
  options.abortSignal?.addEventListener('abort', onAbort, { once: true });
  try {
    const call = Promise.resolve().then(() =>
      summarize({
        messages: input.messages,
        ...(input.previousSummary === undefined ? {} : { previousSummary: input.previousSummary }),
        abortSignal: controller.signal,
      }),
    );
    const text: unknown = await Promise.race([call, stopped]);
    if (typeof text !== 'string' || text.trim() === '') {
      return { ok: false, error: 'summarizer returned an empty summary' };
    }
    return { ok: true, text: text.trim() };
  } catch (error) {
    if (controller.signal.aborted) return { ok: false, error: messageOf(controller.signal.reason) };
    return { ok: false, error: `summarizer failed: ${messageOf(error)}` };
  } finally {
    clearTimeout(timer);
    options.abortSignal?.removeEventListener('abort', onAbort);
  }
}

function abortText(reason: unknown): string {
  const detail = reason === undefined ? '' : `: ${messageOf(reason)}`;
  return `aborted by the caller's abort signal${detail}`;
}

function messageOf(value: unknown): string {
  if (value instanceof Error) return value.message || value.name;
  return typeof value === 'string' ? value : String(value);
}
