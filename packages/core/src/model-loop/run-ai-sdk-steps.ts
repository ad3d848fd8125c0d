import { stepCountIs, streamText, type LanguageModel, type TelemetrySettings } from 'ai';
import { knownFinishReason } from './known-finish-reason.js';
import { refuseDownloads } from './refuse-downloads.js';
import type { ModelLoopOptions, PartSink } from './run-model-loop.js';

export interface AiSdkStepsOptions extends Omit<ModelLoopOptions, 'model'> {
  model: LanguageModel;
  telemetry: TelemetrySettings | null;
}

/**
 * The same steps as `runModelLoop`, through the AI SDK's own `streamText`: used when the app switches on the
 * SDK's telemetry (its spans exist only inside its pipeline) or names a model by a gateway id string.
 * Nothing awaits the result promises (they never settle when a provider connection dies): everything is
 * read from the full stream. A finish reason `unknown` is handed over as `other`, as the loop does.
 *
 * This path cannot pause a turn for the user's approval (`needsApproval` is ignored here): the caller hands
 * it a tool set in which a tool that needs approval refuses to run (`refuseUnapprovedTools`).
 */
export async function runAiSdkSteps(options: AiSdkStepsOptions, sink: PartSink): Promise<void> {
  const { prepareStep } = options;
  const result = streamText({
    model: options.model,
    system: options.system,
    messages: [...(await options.history()), ...(options.resume?.added ?? [])],
    tools: options.tools,
    stopWhen: stepCountIs(Math.max(1, options.maxSteps - (options.resume?.steps ?? 0))),
    ...(prepareStep ? { prepareStep: ({ stepNumber, messages }) => (stepNumber === 0 ? undefined : prepareStep({ stepNumber, messages })) } : {}),
    abortSignal: options.abortSignal,
    maxRetries: options.maxRetries,
    // The `error` part reports it (the SDK's default would print to the console).
    onError: () => undefined,
    // Nothing is fetched on the model's behalf: prompts carry attachments' bytes, never URLs.
    experimental_download: refuseDownloads,
    ...(options.telemetry ? { experimental_telemetry: options.telemetry } : {}),
  });
  const reader = result.fullStream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || sink(value.type === 'finish' || value.type === 'finish-step' ? { ...value, finishReason: knownFinishReason(value.finishReason) } : value) === false) return;
    }
  } finally {
    reader.cancel().catch(() => undefined);
  }
}
