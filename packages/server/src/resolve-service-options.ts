import { createModelRegistry, type ChatServiceOptions } from '@chatwire/core';
import { createTurnLimits } from '@chatwire/core/limits';
import { createRecordStore } from '@chatwire/storage';
import { createMemoryDriver } from '@chatwire/storage/memory';
import type { HttpOptions, ServiceOptions } from './chat-handler-options.js';
import type { TurnSharing } from './redis-turn-sharing.js';

/** The service's options: defaults for the store and models, Redis turn sharing, limits from the HTTP options. */
export function resolveServiceOptions(
  options: ServiceOptions & HttpOptions,
  sharing: TurnSharing | null,
  onError: NonNullable<ChatServiceOptions['onError']>,
): ChatServiceOptions {
  const store = options.store ?? createRecordStore({ driver: createMemoryDriver() });
  const { turnsPerMinute, tokensPerDay, limitsFor } = options;
  const limited = turnsPerMinute !== undefined || tokensPerDay !== undefined || limitsFor !== undefined;
  const limits =
    options.limits ??
    (limited
      ? createTurnLimits({
          turnsPerMinute,
          tokensPerDay,
          limitsFor,
          // Tokens are read from the usage ledger only where other processes write it too.
          ...(store.capabilities.sharedLeases ? { store } : {}),
          ...(sharing ? { redis: sharing.client } : {}),
          onError: (error) => onError(error, { stage: 'internal' }),
        })
      : undefined);
  return {
    ...options,
    attachments: { basePath: normalizeBasePath(options.basePath ?? '/api/ai'), ...options.attachments },
    store,
    models: options.models ?? createModelRegistry(),
    ...(sharing ? { hub: sharing.hub, bus: sharing.bus } : {}),
    ...(limits ? { limits } : {}),
  };
}

/** `/api/ai/` and `api/ai` both read `/api/ai`. */
export function normalizeBasePath(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  return trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
}
