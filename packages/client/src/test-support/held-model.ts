import type { LanguageModelV2StreamPart } from '@ai-sdk/provider';
import { MockLanguageModelV2 } from 'ai/test';

const usage = { inputTokens: 3, outputTokens: 2, totalTokens: 5 };

export interface HeldModel {
  model: MockLanguageModelV2;
  /** The prompt of every model call, in order (the messages' text joined by ' | '). */
  prompts: string[];
  /** Resolves once the model has streamed `count` text deltas in total, over all calls. */
  deltas(count: number): Promise<void>;
  /** Pauses every answer (or only call number `call`, 0-based) after its first `count` deltas until `release()` or its abort. */
  holdAfter(count: number, call?: number): void;
  release(): void;
  /** True once some model call was ended early: its abort signal fired or its stream was cancelled. */
  readonly aborted: boolean;
}

/**
 * Test support: a model answering call i with `answers[i]` (the last one repeats), one word per text delta
 * (an `Error` answer: the provider fails with it),
 * one delta per macrotask; it honours the abort signal like a fetch-based provider and can hold an answer
 * midway, which makes "stop mid-answer" and "resume a running turn" deterministic.
 */
export function heldModel(answers: Array<string | Error>): HeldModel {
  const prompts: string[] = [];
  let total = 0;
  let hold = Infinity;
  let holdCall: number | undefined;
  let release: (() => void) | null = null;
  let aborted = false;
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  const notify = () => {
    for (const w of [...waiters]) if (total >= w.count) (waiters.splice(waiters.indexOf(w), 1), w.resolve());
  };
  const model = new MockLanguageModelV2({
    doStream: async ({ prompt, abortSignal }) => {
      const index = prompts.push(promptText(prompt)) - 1;
      const answer = answers[Math.min(index, answers.length - 1)]!;
      if (answer instanceof Error) {
        return { stream: new ReadableStream<LanguageModelV2StreamPart>({ start: (controller) => controller.error(answer) }) };
      }
      const words = answer.split(/(?<= )/);
      const stream = new ReadableStream<LanguageModelV2StreamPart>({
        async start(controller) {
          const onAbort = () => {
            aborted = true;
            release?.();
            controller.error(Object.assign(new Error('This operation was aborted'), { name: 'AbortError' }));
          };
          if (abortSignal?.aborted) return onAbort();
          abortSignal?.addEventListener('abort', onAbort, { once: true });
          controller.enqueue({ type: 'stream-start', warnings: [] });
          controller.enqueue({ type: 'text-start', id: 't' });
          for (let i = 0; i < words.length; i++) {
            if (i === hold && (holdCall === undefined || holdCall === index)) await new Promise<void>((resolve) => (release = resolve));
            if (abortSignal?.aborted) return;
            controller.enqueue({ type: 'text-delta', id: 't', delta: words[i]! });
            total++;
            notify();
            await new Promise((resolve) => setImmediate(resolve));
          }
          abortSignal?.removeEventListener('abort', onAbort);
          controller.enqueue({ type: 'text-end', id: 't' });
          controller.enqueue({ type: 'finish', finishReason: 'stop', usage });
          controller.close();
        },
        cancel() {
          // The reader stopped early: the model call is over, like a fetch body cancelled mid-answer.
          aborted = true;
          release?.();
        },
      });
      return { stream };
    },
  });
  return {
    model,
    prompts,
    deltas: (count) => (total >= count ? Promise.resolve() : new Promise((resolve) => waiters.push({ count, resolve }))),
    holdAfter: (count, call) => {
      hold = count;
      holdCall = call;
    },
    release: () => {
      hold = Infinity;
      release?.();
      release = null;
    },
    get aborted() {
      return aborted;
    },
  };
}

function promptText(prompt: ReadonlyArray<{ role: string; content: unknown }>): string {
  return prompt
    .filter((m) => m.role !== 'system')
    .map((m) =>
      typeof m.content === 'string'
        ? m.content
        : (m.content as Array<{ type: string; text?: string }>).map((p) => p.text ?? '').join(''),
    )
    .join(' | ');
}
