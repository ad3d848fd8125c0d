/**
 * The one mock model all three bench lines (R0, R1, R2) talk to: a LanguageModelV2 whose `doStream`
 * emits `stream-start`, `response-metadata`, `text-start`, N `text-delta` parts, `text-end` and `finish`,
 * as fast as the reader pulls (one part per pull) or paced (one delta every `paceMs`).
 * Written by hand rather than with `MockLanguageModelV2`, which records every call (a leak over 10,000 turns).
 */
import type { LanguageModel } from 'ai';

export type BenchModel = Exclude<LanguageModel, string>;
type CallOptions = Parameters<BenchModel['doStream']>[0];
type StreamResult = Awaited<ReturnType<BenchModel['doStream']>>;
export type ModelPart = StreamResult['stream'] extends ReadableStream<infer P> ? P : never;

export interface BenchModelOptions {
  /** text-delta parts per answer. */
  deltas: number;
  /** Text of each delta (default `'tok '`: a short token, like a real provider). */
  delta?: string;
  /** Milliseconds between deltas; 0 or absent: as fast as possible. */
  paceMs?: number;
  /**
   * Give every delta its own flat string, as a provider's JSON parser does (default: all deltas share
   * one string, which makes held text look nearly free).
   */
  freshDeltas?: boolean;
  /** Called as the model is about to emit part number i (measurement hooks). */
  onPart?: (i: number) => void;
}

const usage = { inputTokens: 100, outputTokens: 500, totalTokens: 600 };

/** The parts of one answer, in order (shared by the model and by R0's hand-written route). */
export function answerParts(deltas: number, delta: string, fresh = false): (i: number) => ModelPart | undefined {
  const last = deltas + 3;
  const text = fresh ? (i: number) => JSON.parse(JSON.stringify(`${i % 10}${delta.slice(1)}`)) as string : () => delta;
  return (i) => {
    if (i === 0) return { type: 'stream-start', warnings: [] };
    if (i === 1) return { type: 'response-metadata', id: 'resp-bench', modelId: 'bench-model', timestamp: new Date(0) };
    if (i === 2) return { type: 'text-start', id: 't0' };
    if (i < last) return { type: 'text-delta', id: 't0', delta: text(i) };
    if (i === last) return { type: 'text-end', id: 't0' };
    if (i === last + 1) return { type: 'finish', finishReason: 'stop', usage };
    return undefined;
  };
}

export function createBenchModel(options: BenchModelOptions): BenchModel {
  const paceMs = options.paceMs ?? 0;
  const partAt = answerParts(options.deltas, options.delta ?? 'tok ', options.freshDeltas);
  return {
    specificationVersion: 'v2',
    provider: 'bench',
    modelId: 'bench-model',
    supportedUrls: {},
    doGenerate() {
      throw new Error('bench model: streaming only');
    },
    async doStream(call: CallOptions): Promise<StreamResult> {
      const hook = options.onPart;
      const parts = hook ? (i: number) => (hook(i), partAt(i)) : partAt;
      return { stream: partStream(parts, paceMs, call.abortSignal) };
    },
  };
}

/** One part per pull; a paced stream waits `paceMs` before each text delta. Honours the abort signal. */
export function partStream(partAt: (i: number) => ModelPart | undefined, paceMs: number, signal?: AbortSignal): ReadableStream<ModelPart> {
  let i = 0;
  let timer: NodeJS.Timeout | undefined;
  return new ReadableStream<ModelPart>({
    start(controller) {
      signal?.addEventListener(
        'abort',
        () => {
          clearTimeout(timer);
          try {
            controller.error(Object.assign(new Error('This operation was aborted'), { name: 'AbortError' }));
          } catch {
            // already closed
          }
        },
        { once: true },
      );
    },
    pull(controller) {
      const part = partAt(i++);
      if (part === undefined) return controller.close();
      if (paceMs <= 0 || part.type !== 'text-delta') return controller.enqueue(part);
      return new Promise<void>((resolve) => {
        timer = setTimeout(() => {
          if (!signal?.aborted) controller.enqueue(part);
          resolve();
        }, paceMs);
      });
    },
  });
}
