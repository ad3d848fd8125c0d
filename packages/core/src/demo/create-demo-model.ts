import type {
  LanguageModelV2,
  LanguageModelV2CallOptions,
  LanguageModelV2Content,
  LanguageModelV2Prompt,
  LanguageModelV2StreamPart,
  LanguageModelV2Usage,
} from '@ai-sdk/provider';
import { planDemoReply, type DemoReply } from './plan-demo-reply.js';

export interface DemoModelOptions {
  /** Pause before each streamed word / tool input, in ms. 0 streams without timers. Default 15. */
  chunkDelayMs?: number;
}

export const DEMO_MODEL_ID = 'chatwire-demo';
export const DEMO_PROVIDER = 'chatwire.demo';

/**
 * A deterministic `LanguageModelV2` for running chatwire without any provider (the examples' demo mode).
 * It streams its answer word by word, honours `abortSignal` like a fetch-based provider (the stream errors
 * with an `AbortError`), and calls the chat tools `records_query`, `records_create` and `user_current` when
 * the last user message asks to list notes, create a note titled X, or who the user is.
 */
export function createDemoModel(options: DemoModelOptions = {}): LanguageModelV2 {
  const chunkDelayMs = Math.max(0, options.chunkDelayMs ?? 15);
  return {
    specificationVersion: 'v2',
    provider: DEMO_PROVIDER,
    modelId: DEMO_MODEL_ID,
    supportedUrls: {},
    async doGenerate(callOptions) {
      throwIfAborted(callOptions.abortSignal);
      const reply = planDemoReply(callOptions);
      const content: LanguageModelV2Content[] =
        reply.type === 'text'
          ? [{ type: 'text', text: reply.text }]
          : [{ type: 'tool-call', toolCallId: reply.toolCallId, toolName: reply.toolName, input: JSON.stringify(reply.input) }];
      return {
        content,
        finishReason: reply.type === 'text' ? 'stop' : 'tool-calls',
        usage: demoUsage(callOptions.prompt, reply),
        warnings: [],
      };
    },
    async doStream(callOptions) {
      throwIfAborted(callOptions.abortSignal);
      const reply = planDemoReply(callOptions);
      return { stream: streamParts(streamPartsFor(callOptions, reply), chunkDelayMs, callOptions.abortSignal) };
    },
  };
}

function streamPartsFor(callOptions: LanguageModelV2CallOptions, reply: DemoReply): LanguageModelV2StreamPart[] {
  const usage = demoUsage(callOptions.prompt, reply);
  const head: LanguageModelV2StreamPart[] = [{ type: 'stream-start', warnings: [] }];
  if (reply.type === 'text') {
    return [
      ...head,
      { type: 'text-start', id: 'txt-0' },
      ...splitWords(reply.text).map((delta): LanguageModelV2StreamPart => ({ type: 'text-delta', id: 'txt-0', delta })),
      { type: 'text-end', id: 'txt-0' },
      { type: 'finish', finishReason: 'stop', usage },
    ];
  }
  const input = JSON.stringify(reply.input);
  const id = reply.toolCallId;
  return [
    ...head,
    { type: 'tool-input-start', id, toolName: reply.toolName },
    { type: 'tool-input-delta', id, delta: input },
    { type: 'tool-input-end', id },
    { type: 'tool-call', toolCallId: id, toolName: reply.toolName, input },
    { type: 'finish', finishReason: 'tool-calls', usage },
  ];
}

function streamParts(
  parts: LanguageModelV2StreamPart[],
  chunkDelayMs: number,
  signal: AbortSignal | undefined,
): ReadableStream<LanguageModelV2StreamPart> {
  let index = 0;
  let cancelled = false;
  let onAbort: (() => void) | undefined;
  const detach = () => {
    if (onAbort) signal?.removeEventListener('abort', onAbort);
    onAbort = undefined;
  };
  return new ReadableStream<LanguageModelV2StreamPart>({
    start(controller) {
      if (!signal) return;
      // Error the stream the moment the signal fires, even when nobody is pulling.
      onAbort = () => {
        detach();
        controller.error(abortError());
      };
      signal.addEventListener('abort', onAbort, { once: true });
    },
    async pull(controller) {
      const part = parts[index];
      index += 1;
      if (part === undefined) {
        detach();
        controller.close();
        return;
      }
      if (chunkDelayMs > 0 && isPaced(part)) await sleep(chunkDelayMs, signal);
      if (signal?.aborted || cancelled) return; // errored by the listener, or the reader went away
      controller.enqueue(part);
    },
    cancel() {
      cancelled = true;
      detach();
    },
  });
}

function isPaced(part: LanguageModelV2StreamPart): boolean {
  return part.type === 'text-delta' || part.type === 'tool-input-delta';
}

/** Words with their trailing whitespace, so the deltas concatenate to the exact text. */
function splitWords(text: string): string[] {
  return text.match(/\S+\s*/g) ?? [];
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** What `fetch` rejects with on abort; `streamText` recognises it by name. */
function abortError(): Error {
  return new DOMException('The operation was aborted.', 'AbortError');
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw abortError();
}

/** Deterministic usage: prompt words in, reply words (or tool input characters / 4) out. */
function demoUsage(prompt: LanguageModelV2Prompt, reply: DemoReply): LanguageModelV2Usage {
  const inputTokens = countWords(JSON.stringify(prompt.map(promptText)));
  const outputTokens =
    reply.type === 'text' ? splitWords(reply.text).length : Math.ceil((reply.toolName.length + JSON.stringify(reply.input).length) / 4);
  return { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens };
}

function promptText(message: LanguageModelV2Prompt[number]): string {
  if (message.role === 'system') return message.content;
  return message.content
    .map((part) => {
      if (part.type === 'text' || part.type === 'reasoning') return part.text;
      if (part.type === 'tool-call') return JSON.stringify(part.input);
      if (part.type === 'tool-result') return JSON.stringify(part.output);
      return '';
    })
    .join(' ');
}

function countWords(text: string): number {
  return text.split(/[\s"{}[\],:]+/).filter(Boolean).length;
}
