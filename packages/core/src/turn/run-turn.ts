import { stepCountIs, streamText, type LanguageModel, type ModelMessage, type ToolSet, type UIMessageChunk } from 'ai';
import type { Caller, RecordStore, TurnLease } from '@chatwire/storage';
import { compactHistory, compactStepMessages } from '../compaction/index.js';
import type { CompactionConfig, CompactionReport, ConversationSummary, Summarizer } from '../compaction/compaction-types.js';
import { MAX_TOOL_STEPS } from '../tools/index.js';
import type { ToolCatalog } from '../tools/tool-types.js';
import { AssistantMessageBuilder } from './assistant-message-builder.js';
import { encodeSseChunk, encodeTextDelta, SSE_DONE } from './sse-encoder.js';
import { historyEntries, loadCachedSummary, loadChatMessages, sanitizeStepMessages } from './load-history.js';
import { persistTurn } from './persist-turn.js';
import { safeErrorText } from './error-text.js';
import { uiChunkFromPart } from './ui-chunk-from-part.js';
import type { ErrorReporter } from './turn-types.js';

export interface RunTurnParams {
  store: RecordStore;
  caller: Caller;
  chatId: string;
  userMessageId: string;
  assistantMessageId: string;
  content: string;
  modelId: string;
  provider: string;
  model: LanguageModel;
  tools: ToolCatalog;
  compaction: CompactionConfig;
  summarize: Summarizer | null;
  system: string | undefined;
  maxRetries: number;
  lease: TurnLease;
  leaseRenewMs: number;
  signal: AbortSignal | undefined;
  onError: ErrorReporter;
}

const SAVE_FAILED = 'The reply could not be saved. Please send your message again.';

/**
 * The streamed part of a turn (spec 4.5 steps 3-6), as SSE bytes. Every way a turn ends (finish, abort,
 * provider error, a provider connection dying mid-stream, a storage failure) ends the stream with
 * `[DONE]` and releases the chat's lease. Nothing here awaits the `streamText` result promises: they
 * never settle when the provider connection dies, so everything is read from the full stream.
 */
export function runTurn(p: RunTurnParams): ReadableStream<Uint8Array> {
  const abort = new AbortController();
  const onRequestAbort = () => abort.abort(p.signal?.reason);
  if (p.signal?.aborted) abort.abort(p.signal.reason);
  else p.signal?.addEventListener('abort', onRequestAbort, { once: true });
  // A lease that can no longer be renewed was taken over (this process stalled past its ttl): stop the
  // turn rather than let two turns of one chat write at once.
  const renew = setInterval(() => {
    p.lease.renew().then(
      (held) => {
        if (!held) abort.abort(new Error('the chat lease was lost'));
      },
      () => undefined,
    );
  }, p.leaseRenewMs);
  renew.unref?.();
  let open = true;

  return new ReadableStream<Uint8Array>({
    start(controller) {
      const sendEncoded = (bytes: Uint8Array) => {
        if (open) controller.enqueue(bytes);
      };
      const send = (chunk: UIMessageChunk) => sendEncoded(encodeSseChunk(chunk));
      const report = (error: unknown, stage: Parameters<ErrorReporter>[1]['stage']) => {
        try {
          p.onError(error, { stage, chatId: p.chatId, userId: p.caller.userId });
        } catch {
          // A throwing onError must not break the turn.
        }
      };

      void drive(p, abort.signal, send, sendEncoded, report)
        .catch((error: unknown) => {
          // A bug, not a turn outcome: still end the stream cleanly and free the chat.
          report(error, 'internal');
          send({ type: 'error', errorText: safeErrorText(error) });
        })
        .finally(async () => {
          clearInterval(renew);
          p.signal?.removeEventListener('abort', onRequestAbort);
          // Freed before the stream ends: a client that sends its next message on [DONE] must not get CHAT_BUSY.
          await p.lease.release().catch((error: unknown) => report(error, 'lease'));
          if (open) {
            open = false;
            controller.enqueue(SSE_DONE);
            controller.close();
          }
        });
    },
    cancel(reason) {
      open = false;
      abort.abort(reason);
    },
  });
}

async function drive(
  p: RunTurnParams,
  signal: AbortSignal,
  send: (chunk: UIMessageChunk) => void,
  sendEncoded: (bytes: Uint8Array) => void,
  report: (error: unknown, stage: Parameters<ErrorReporter>[1]['stage']) => void,
): Promise<void> {
  const started = Date.now();
  send({ type: 'start', messageId: p.assistantMessageId });
  const server = p.store.asServer();

  let prepared: { messages: ModelMessage[]; summary: ConversationSummary | null; report: CompactionReport };
  try {
    const [rows, cachedSummary] = await Promise.all([
      loadChatMessages(server, p.chatId),
      loadCachedSummary(server, p.chatId),
    ]);
    const entries = [...historyEntries(rows), { id: p.userMessageId, messages: [{ role: 'user' as const, content: p.content }] }];
    prepared = await compactHistory(entries, { config: p.compaction, cachedSummary, summarize: p.summarize, abortSignal: signal });
  } catch (error) {
    if (signal.aborted) return send({ type: 'abort' });
    report(error, 'history');
    return send({ type: 'error', errorText: safeErrorText(error) });
  }

  const tools: ToolSet = p.tools.forTurn({ caller: p.caller, records: p.store.asCaller(p.caller), abortSignal: signal });
  const builder = new AssistantMessageBuilder();
  let failed = false;
  let steps = 0;

  try {
    const result = streamText({
      model: p.model,
      system: p.system,
      messages: prepared.messages,
      tools,
      stopWhen: stepCountIs(MAX_TOOL_STEPS),
      abortSignal: signal,
      maxRetries: p.maxRetries,
      prepareStep: ({ stepNumber, messages }) => {
        if (stepNumber === 0) return undefined;
        const step = compactStepMessages(sanitizeStepMessages(messages), p.compaction);
        // The last allowed step is offered no tool, so a turn that hits the cap ends with an answer.
        return stepNumber >= MAX_TOOL_STEPS - 1 ? { messages: step.messages, toolChoice: 'none' } : { messages: step.messages };
      },
      onError: ({ error }) => report(error, 'model'),
    });

    // A plain reader rather than `for await` (one promise per part less); leaving the loop early cancels
    // it, as the async iterator's `return()` did.
    const reader = result.fullStream.getReader();
    let ended = false;
    try {
      for (;;) {
        const { done, value: part } = await reader.read();
        if (done) {
          ended = true;
          break;
        }
        if (part.type === 'text-delta') {
          // The hot path (most parts of every answer): no chunk object, the SSE line written directly.
          builder.appendText(part.id, part.text);
          sendEncoded(encodeTextDelta(part.id, part.text));
          continue;
        }
        if (part.type === 'error') failed = true;
        else if (part.type === 'finish-step') steps++;
        const chunk = uiChunkFromPart(part);
        if (!chunk) continue;
        if (part.type === 'finish' && !failed && !signal.aborted) {
          const saved = await save(p, builder, prepared, part.finishReason, part.totalUsage, steps, started, report);
          if (!saved) return send({ type: 'error', errorText: SAVE_FAILED });
        }
        builder.apply(chunk);
        send(chunk);
      }
    } finally {
      if (!ended) reader.cancel().catch(() => undefined);
    }
  } catch (error) {
    if (signal.aborted) return send({ type: 'abort' });
    report(error, 'model');
    send({ type: 'error', errorText: safeErrorText(error) });
  }
}

async function save(
  p: RunTurnParams,
  builder: AssistantMessageBuilder,
  prepared: { summary: ConversationSummary | null; report: CompactionReport },
  finishReason: string,
  usage: { inputTokens?: number; outputTokens?: number; totalTokens?: number; reasoningTokens?: number; cachedInputTokens?: number },
  steps: number,
  started: number,
  report: (error: unknown, stage: 'persist') => void,
): Promise<boolean> {
  const { chatId, caller, userMessageId, assistantMessageId } = p;
  const userId = caller.userId;
  const transactional = p.store.driver.transaction !== undefined;
  const outcome = await persistTurn(
    p.store.asServer(),
    {
      chatId,
      user: {
        recordId: userMessageId,
        data: { chatId, userId, role: 'user', content: p.content, parts: [{ type: 'text', text: p.content }] },
      },
      assistant: {
        recordId: assistantMessageId,
        data: json({ chatId, userId, role: 'assistant', content: builder.text(), parts: builder.parts }),
      },
      turn: {
        recordId: assistantMessageId,
        data: json({
          chatId,
          userId,
          userMessageId,
          assistantMessageId,
          modelId: p.modelId,
          provider: p.provider,
          finishReason,
          usage: {
            input: usage.inputTokens ?? null,
            output: usage.outputTokens ?? null,
            total: usage.totalTokens ?? null,
            reasoning: usage.reasoningTokens ?? null,
            cached: usage.cachedInputTokens ?? null,
          },
          steps,
          toolCalls: builder.toolCalls(),
          durationMs: Date.now() - started,
          compaction: prepared.report,
          ...(prepared.summary ? { summary: prepared.summary } : {}),
        }),
      },
    },
    transactional,
  );
  if (outcome.status === 'failed') report(outcome.error, 'persist');
  // Without transactions a failed turn row leaves the user and assistant rows stored: the reply is saved.
  return outcome.status !== 'failed' || (outcome.stage === 'turn' && !transactional);
}

/** Plain JSON (drops undefined fields) so retried inserts compare equal and every driver stores the same. */
function json<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
