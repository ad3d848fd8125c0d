import { MockLanguageModelV2 } from 'ai/test';

type StreamResult = Awaited<ReturnType<MockLanguageModelV2['doStream']>>;
type StreamPart = StreamResult['stream'] extends ReadableStream<infer P> ? P : never;

export interface ControllableModel {
  model: MockLanguageModelV2;
  /** Lets the current stream go on past its first text delta. */
  release(): void;
  /** Resolves with the abort reason once a stream's `abortSignal` fires. */
  readonly aborted: Promise<unknown>;
  /** Resolves when the model stream was closed normally. */
  readonly finished: Promise<void>;
}

/**
 * A model whose stream sends `Hello`, then waits until the test calls `release()` before sending
 * ` world` and finishing. It honours `abortSignal` the way a fetch-based provider does.
 * With `gated: false` it streams straight through.
 */
export function createControllableModel(options: { gated?: boolean } = {}): ControllableModel {
  const gate = deferred<void>();
  if (options.gated === false) gate.resolve();
  const aborted = deferred<unknown>();
  const finished = deferred<void>();

  const model = new MockLanguageModelV2({
    doStream: async ({ abortSignal }) => {
      const stream = new ReadableStream<StreamPart>({
        async start(controller) {
          let stopped = false;
          abortSignal?.addEventListener(
            'abort',
            () => {
              stopped = true;
              aborted.resolve(abortSignal.reason);
              controller.error(new DOMException('The operation was aborted', 'AbortError'));
            },
            { once: true },
          );
          controller.enqueue({ type: 'stream-start', warnings: [] });
          controller.enqueue({ type: 'text-start', id: 't1' });
          controller.enqueue({ type: 'text-delta', id: 't1', delta: 'Hello' });
          await gate.promise;
          if (stopped) return;
          controller.enqueue({ type: 'text-delta', id: 't1', delta: ' world' });
          controller.enqueue({ type: 'text-end', id: 't1' });
          controller.enqueue({
            type: 'finish',
            finishReason: 'stop',
            usage: { inputTokens: 3, outputTokens: 2, totalTokens: 5 },
          });
          controller.close();
          finished.resolve();
        },
      });
      return { stream };
    },
  });
  return { model, release: () => gate.resolve(), aborted: aborted.promise, finished: finished.promise };
}

function deferred<T>(): { promise: Promise<T>; resolve(value: T): void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}
