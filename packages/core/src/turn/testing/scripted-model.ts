import type { LanguageModelV2CallOptions, LanguageModelV2StreamPart } from '@ai-sdk/provider';
import { MockLanguageModelV2 } from 'ai/test';

export type Script = LanguageModelV2StreamPart[];

export const STEP_USAGE = { inputTokens: 10, outputTokens: 5, totalTokens: 15 };

/** A text-only step: one text block, one delta per word, then `finish` with `STEP_USAGE`. */
export function textStep(text: string, id = 't1'): Script {
  const words = text.split(/(?<= )/);
  return [
    { type: 'text-start', id },
    ...words.map((delta) => ({ type: 'text-delta' as const, id, delta })),
    { type: 'text-end', id },
    { type: 'finish', finishReason: 'stop', usage: STEP_USAGE },
  ];
}

/** A step that calls one tool, then finishes with `tool-calls`. */
export function toolStep(toolName: string, input: unknown, toolCallId = 'call-1'): Script {
  return [
    { type: 'tool-call', toolCallId, toolName, input: typeof input === 'string' ? input : JSON.stringify(input) },
    { type: 'finish', finishReason: 'tool-calls', usage: STEP_USAGE },
  ];
}

export interface ScriptedModel {
  model: MockLanguageModelV2;
  /** Call options of every model call, in order. */
  calls: LanguageModelV2CallOptions[];
  /** Resolves when the model has emitted `count` parts in total over all calls. */
  emitted(count: number): Promise<void>;
  /** Pauses before emitting part number n (0-based, over all calls); `release()` resumes. `pauseAt(0)`: a model that never answers. */
  pauseAt(n: number): void;
  release(): void;
  /** True once the abort signal of some model call fired. */
  readonly aborted: boolean;
}

/**
 * A `MockLanguageModelV2` that answers call i with `scripts[i]` (the last one repeats), emits parts one at a
 * time (a macrotask apart), errors its stream on abort like a fetch-based provider, and can pause at a part.
 * `failAfter` makes the stream die (throw `failWith`) after that many parts in total.
 */
export function scriptedModel(scripts: Script[], options: { failAfter?: number; failWith?: unknown } = {}): ScriptedModel {
  const calls: LanguageModelV2CallOptions[] = [];
  let total = 0;
  let aborted = false;
  let pause = -1;
  let resume: (() => void) | null = null;
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  const notify = (): void => {
    for (const waiter of [...waiters]) {
      if (total >= waiter.count) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  };

  const model = new MockLanguageModelV2({
    doStream: async (callOptions) => {
      const index = calls.push(callOptions) - 1;
      const script = scripts[Math.min(index, scripts.length - 1)]!;
      const signal = callOptions.abortSignal;
      const stream = new ReadableStream<LanguageModelV2StreamPart>({
        async start(controller) {
          const onAbort = (): void => {
            aborted = true;
            controller.error(Object.assign(new Error('This operation was aborted'), { name: 'AbortError' }));
          };
          if (signal?.aborted) return onAbort();
          signal?.addEventListener('abort', onAbort, { once: true });
          controller.enqueue({ type: 'stream-start', warnings: [] });
          for (const part of script) {
            if (total === pause) await new Promise<void>((resolve) => (resume = resolve));
            if (signal?.aborted) return;
            if (options.failAfter === total) {
              signal?.removeEventListener('abort', onAbort);
              return controller.error(options.failWith ?? new Error('socket hang up'));
            }
            controller.enqueue(part);
            total++;
            notify();
            await new Promise((resolve) => setImmediate(resolve));
          }
          signal?.removeEventListener('abort', onAbort);
          controller.close();
        },
      });
      return { stream };
    },
  });

  return {
    model,
    calls,
    emitted: (count) => (total >= count ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ count, resolve }))),
    pauseAt: (n) => (pause = n),
    release: () => {
      pause = -1;
      resume?.();
      resume = null;
    },
    get aborted() {
      return aborted;
    },
  };
}
