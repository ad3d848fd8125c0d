import { createModelRegistry, type ModelId } from '@chatwire/core';
import { createRecordStore } from '@chatwire/storage';
import { createMemoryDriver } from '@chatwire/storage/memory';
import type { LanguageModel } from 'ai';
import { createChatHandler, type ChatHandler } from '../create-chat-handler.js';
import { SECRET } from '../test-support/chat-fixture.js';
import type { ProviderToolName } from './replay-fixture.js';
import { REPLAY_BASE_URLS } from './replay-provider.js';
import { replayToolCatalog } from './replay-tools.js';

/** Provider retries are off on both sides: a recorded retryable error is answered once, as recorded. */
export const REPLAY_MAX_RETRIES = 0;

const ENV = {
  PROVIDER_A_BASE_URL: REPLAY_BASE_URLS.provider_a,
  PROVIDER_B_BASE_URL: REPLAY_BASE_URLS.provider_b,
  PROVIDER_C_BASE_URL: REPLAY_BASE_URLS.provider_c,
  APP_OWNER_JWT: 'replay-app-owner-jwt',
};

/** The chat handler of a replay run: memory store, the real provider packages pointed at msw, the fixture's tools. */
export function replayHandler(providerTools: readonly ProviderToolName[]): ChatHandler {
  return createChatHandler({
    store: createRecordStore({ driver: createMemoryDriver() }),
    models: createModelRegistry({ env: ENV }),
    tools: replayToolCatalog(providerTools),
    auth: { secret: SECRET },
    summarizerModelId: false,
    maxRetries: REPLAY_MAX_RETRIES,
  });
}

/** The very model chatwire uses for `modelId` (same provider package, settings and middleware), for the SDK run. */
export function replayModel(modelId: ModelId, authToken: string): LanguageModel {
  return createModelRegistry({ env: ENV }).languageModel(modelId, { authToken });
}
