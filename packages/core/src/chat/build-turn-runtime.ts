import type { LanguageModel, TelemetrySettings } from 'ai';
import { ChatwireError, DEFAULT_TURN_LEASE_TTL_MS } from '@chatwire/storage';
import { createCompactionConfig, createModelSummarizer } from '../compaction/index.js';
import type { Summarizer } from '../compaction/compaction-types.js';
import { checkAppModel } from '../models/build-served-models.js';
import { createToolCatalog } from '../tools/index.js';
import type { ToolCatalog } from '../tools/tool-types.js';
import { createMemoryTurnHub } from '../hub/create-memory-turn-hub.js';
import { createNotificationTurnBus } from '../hub/create-notification-turn-bus.js';
import type { TurnRuntime } from '../turn/turn-runtime.js';
import { observeNothing } from '../turn/turn-observer.js';
import type { ErrorReporter } from '../turn/turn-types.js';
import { createAttachmentService, type AttachmentService } from '../attachments/create-attachment-service.js';
import { createTitleGenerator } from './generate-title.js';
import type { ChatServiceOptions } from './chat-service-types.js';

/**
 * What every turn of a chat service shares, from its options with their defaults: the tool catalog, the
 * attachment service, compaction, timeouts, the hub and bus, limits, observers, the summarizer and title
 * models, and the error reporter (a throwing `onError` is contained here, once).
 */
export function buildTurnRuntime(options: ChatServiceOptions): TurnRuntime & { attachments: AttachmentService } {
  const { store, models } = options;
  const report: ErrorReporter = options.onError ?? (() => undefined);
  const onError: ErrorReporter = (error, context) => {
    try {
      report(error, context);
    } catch {
      // A throwing onError must not break a turn (nor leave its chat's lease held).
    }
  };
  // An app's own title model (any AI SDK major) runs as a v2 model, like the allow-listed ones.
  const appTitleModel =
    options.titleModel !== undefined && typeof options.titleModel !== 'string' ? (checkAppModel('titleModel', options.titleModel) as LanguageModel) : null;
  const compaction = createCompactionConfig(options.compaction);
  const leaseTtlMs = options.turnLeaseTtlMs ?? DEFAULT_TURN_LEASE_TTL_MS;
  // 0 would make every lease expire at once (each turn a 400), not turn leases off.
  if (!(leaseTtlMs >= 1 && Number.isFinite(leaseTtlMs))) {
    throw new ChatwireError('CONFIGURATION', `turnLeaseTtlMs must be at least 1 millisecond, got ${String(leaseTtlMs)}`, { details: { option: 'turnLeaseTtlMs' } });
  }
  if (isCatalog(options.tools) && options.approveTools !== undefined && options.approveTools.length > 0) {
    throw new ChatwireError('CONFIGURATION', 'approveTools applies to tool options, not to a built ToolCatalog: give createToolCatalog its approveTools');
  }
  const tools = isCatalog(options.tools)
    ? options.tools
    : createToolCatalog({
        store,
        toolResultCap: Math.max(1_000, compaction.toolResultCap),
        onError: (error) => onError(error, { stage: 'tool' }),
        ...options.tools,
        approveTools: options.tools?.approveTools ?? options.approveTools,
      });
  const notifications = store.driver.notifications;

  function summarizerFor(authToken: string | undefined): Summarizer | null {
    if (options.summarizer) return options.summarizer;
    if (options.summarizerModelId === false) return null;
    try {
      const id = options.summarizerModelId ?? models.summarizerModelId();
      if (!id) return null;
      const { modelId } = models.resolve(id);
      return createModelSummarizer(models.languageModel(modelId, authToken ? { authToken } : {}));
    } catch (error) {
      onError(error, { stage: 'compaction' });
      return null;
    }
  }

  function titleModelFor(authToken: string | undefined): LanguageModel | null {
    if (appTitleModel !== null) return appTitleModel;
    const id = options.titleModel ?? models.summarizerModelId();
    if (!id) return null;
    const { modelId } = models.resolve(id);
    return models.languageModel(modelId, authToken ? { authToken } : {});
  }

  return {
    store,
    attachments: createAttachmentService(store, options.attachments, (error) => onError(error, { stage: 'internal' })),
    tools,
    compaction,
    system: options.system,
    maxRetries: options.maxRetries ?? 2,
    leaseTtlMs,
    firstByteTimeoutMs: options.providerFirstByteTimeoutMs ?? 60_000,
    idleTimeoutMs: options.providerIdleTimeoutMs ?? 30_000,
    onDisconnect: options.onDisconnect ?? 'abort',
    createChatOnFirstTurn: options.createChatOnFirstTurn ?? false,
    historyMode: options.history ?? 'linear',
    hub: options.hub ?? createMemoryTurnHub(),
    bus: options.bus ?? (notifications ? createNotificationTurnBus(notifications) : null),
    summarizer: summarizerFor,
    limits: options.limits ?? null,
    observe: options.observe ?? observeNothing,
    // Observers that want the SDK's spans too (createOtelObservers({ aiSdkTelemetry: true })) carry its settings.
    aiSdkTelemetry: (options.observe as { aiSdkTelemetry?: TelemetrySettings | null } | undefined)?.aiSdkTelemetry ?? null,
    titles: options.autoTitles ? createTitleGenerator({ store, modelFor: titleModelFor, report: onError }) : null,
    report: onError,
  };
}

function isCatalog(value: ChatServiceOptions['tools']): value is ToolCatalog {
  return typeof value === 'object' && value !== null && typeof (value as ToolCatalog).forTurn === 'function';
}
