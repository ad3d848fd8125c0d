import type { LanguageModelV2, LanguageModelV2StreamPart } from '@ai-sdk/provider';

export interface SlowModelOptions {
  /** Words in each answer (`w1 w2 ...`). */
  words: number;
  /** Pause before each word, in ms. */
  delayMs: number;
}

const usage = { inputTokens: 10, outputTokens: 5, totalTokens: 15 };

/**
 * A deterministic `LanguageModelV2` that answers every call with `words` words, one every `delayMs`, and
 * errors its stream with an `AbortError` the moment its abort signal fires, like a fetch-based provider.
 */
export function createSlowModel(options: SlowModelOptions): LanguageModelV2 {
  return {
    specificationVersion: 'v2',
    provider: 'cross-process.slow',
    modelId: 'slow',
    supportedUrls: {},
    async doGenerate() {
      throw new Error('the slow model only streams');
    },
    async doStream({ abortSignal }) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const stream = new ReadableStream<LanguageModelV2StreamPart>({
        async start(controller) {
          const onAbort = () => {
            clearTimeout(timer);
            controller.error(Object.assign(new Error('This operation was aborted'), { name: 'AbortError' }));
          };
          if (abortSignal?.aborted) return onAbort();
          abortSignal?.addEventListener('abort', onAbort, { once: true });
          controller.enqueue({ type: 'stream-start', warnings: [] });
          controller.enqueue({ type: 'text-start', id: 't1' });
          for (let i = 1; i <= options.words; i++) {
            await new Promise<void>((resolve) => (timer = setTimeout(resolve, options.delayMs)));
            if (abortSignal?.aborted) return;
            controller.enqueue({ type: 'text-delta', id: 't1', delta: `w${i} ` });
          }
          abortSignal?.removeEventListener('abort', onAbort);
          controller.enqueue({ type: 'text-end', id: 't1' });
          controller.enqueue({ type: 'finish', finishReason: 'stop', usage });
          controller.close();
        },
      });
      return { stream };
    },
  };
}
