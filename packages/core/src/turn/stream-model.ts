import { streamText, type LanguageModelUsage, type ToolSet } from 'ai';
import type { PreparedPrompt } from './prepare-prompt.js';
import { stepPolicy } from './step-policy.js';
import { TurnInterrupt, type InterruptKind } from './turn-ending.js';
import type { Turn } from './turn.js';
import type { TurnRuntime } from './turn-runtime.js';
import { uiChunkFromPart } from './ui-chunk-from-part.js';
import { ProviderWatchdog } from './provider-watchdog.js';
import { UsageSum } from './usage-sum.js';
import { toolErrorText } from './error-text.js';

/** How the model phase of a turn ended. */
export type StreamOutcome =
  | { kind: 'finished'; finishReason: string; usage: LanguageModelUsage; steps: number }
  | { kind: 'interrupted'; interrupt: InterruptKind; usage: LanguageModelUsage; steps: number }
  | { kind: 'failed'; error: unknown; stage: 'model' | 'history' };

/**
 * Phase two of a turn: the model steps and the tool loop, each streamed part mapped to the chunk the client
 * is sent and applied to the answer that will be stored. The `finish` chunk is not sent here: the settle
 * phase sends it once the answer is stored.
 *
 * Nothing here awaits the `streamText` result promises: they never settle when a provider connection dies,
 * so everything is read from the full stream. An `error` part ends the phase at once: nothing after it is
 * streamed or stored.
 */
export async function streamModel(turn: Turn, prompt: PreparedPrompt, rt: TurnRuntime): Promise<StreamOutcome> {
  const signal = turn.signal;
  const usage = new UsageSum();
  const interrupted = (steps: number): StreamOutcome => ({ kind: 'interrupted', interrupt: TurnInterrupt.kindOf(signal), usage: usage.total, steps });
  if (signal.aborted) return interrupted(0);
  const tools: ToolSet = rt.tools.forTurn({ caller: turn.caller, records: rt.store.asCaller(turn.caller), abortSignal: signal });
  const watchdog = new ProviderWatchdog(rt.firstByteTimeoutMs, rt.idleTimeoutMs, (kind) => turn.interrupt(kind));
  const { output, answer } = turn;
  let steps = 0;

  try {
    const result = streamText({
      model: turn.model.model,
      system: rt.system,
      messages: prompt.messages,
      tools,
      ...stepPolicy(rt.compaction),
      abortSignal: signal,
      maxRetries: rt.maxRetries,
      // The `error` part reports it (the SDK's default would print to the console).
      onError: () => undefined,
      ...(rt.aiSdkTelemetry ? { experimental_telemetry: rt.aiSdkTelemetry } : {}),
    });
    // A plain reader rather than `for await` (one promise per part less).
    const reader = result.fullStream.getReader();
    watchdog.modelCallStarted();
    try {
      for (;;) {
        const { done, value: part } = await reader.read();
        if (done) break;
        // A tool the provider runs itself is provider time: it does not pause the watchdog.
        watchdog.saw(part.type === 'tool-call' && part.providerExecuted ? 'provider-tool-call' : part.type);
        if (part.type === 'text-delta') {
          answer.appendText(part.id, part.text);
          output.sendTextDelta(part.id, part.text);
          continue;
        }
        if (part.type === 'error') {
          turn.report(part.error, 'model');
          return { kind: 'failed', error: part.error, stage: 'model' };
        }
        if (part.type === 'abort') break;
        if (part.type === 'finish-step') {
          steps++;
          usage.add(part.usage);
          turn.observer.stepFinished({ finishReason: part.finishReason, usage: part.usage });
        } else if (part.type === 'start-step') turn.observer.stepStarted();
        else if (part.type === 'tool-call') {
          turn.observer.toolStarted(part.toolCallId, part.toolName);
          if (part.invalid) turn.observer.toolFinished(part.toolCallId, toolErrorText(part.error));
        } else if (part.type === 'tool-result' && !part.preliminary) turn.observer.toolFinished(part.toolCallId);
        else if (part.type === 'tool-error') turn.observer.toolFinished(part.toolCallId, toolErrorText(part.error));
        if (part.type === 'finish') {
          if (signal.aborted) break;
          return { kind: 'finished', finishReason: part.finishReason, usage: part.totalUsage, steps };
        }
        const chunk = uiChunkFromPart(part, tools);
        if (!chunk) continue;
        answer.apply(chunk);
        output.send(chunk);
      }
    } finally {
      watchdog.clear();
      reader.cancel().catch(() => undefined);
    }
    if (signal.aborted) return interrupted(steps);
    return { kind: 'failed', error: new Error('the model stream ended without finishing'), stage: 'model' };
  } catch (error) {
    watchdog.clear();
    if (signal.aborted) return interrupted(steps);
    turn.report(error, 'model');
    return { kind: 'failed', error, stage: 'model' };
  }
}
