import { AI_TURNS, createModelRegistry, type ModelRegistry, type ModelRegistryOptions } from '@chatwire/core';
import { createRecordStore, type RecordStore } from '@chatwire/storage';
import { createMemoryDriver } from '@chatwire/storage/memory';
import { createChatHandler } from '../create-chat-handler.js';
import { SECRET, signToken } from '../test-support/chat-fixture.js';
import { newerMajorModel, replayProviderName, type NewerMajor } from './cross-major-models.js';
import type { ReplayFixture } from './replay-fixture.js';
import { REPLAY_MAX_RETRIES } from './replay-handler.js';
import { REPLAY_BASE_URLS, type ReplayProvider } from './replay-provider.js';
import { replayToolCatalog } from './replay-tools.js';
import { sendTurn, type ChatwireRun } from './run-chatwire.js';

/** Which provider packages made the model: chatwire's own (AI SDK 5, `v2`), or the app's of AI SDK 6 or 7. */
export type Major = 'v5' | NewerMajor;

export interface MajorRun extends ChatwireRun {
  /** The stored turn row's fields that do not depend on ids or time. */
  turnRow: Record<string, unknown> | null;
}

function registry(major: Major, fixture: ReplayFixture): ModelRegistry {
  if (major === 'v5') {
    const providers = Object.fromEntries(Object.entries(REPLAY_BASE_URLS).map(([name, baseURL]) => [name, { baseURL }]));
    return createModelRegistry({ providers, appOwnerToken: 'replay-app-owner-jwt' });
  }
  const entry: NonNullable<ModelRegistryOptions['models']>[string] = { model: newerMajorModel(major, fixture.modelId), provider: replayProviderName(fixture.modelId) };
  return createModelRegistry({ models: { [fixture.modelId]: entry } });
}

/**
 * One fixture through chatwire's HTTP handler (memory store), its model made by `major`'s provider packages:
 * the stream, the stored answer and the stored turn row.
 */
export async function runMajor(major: Major, fixture: ReplayFixture, provider: ReplayProvider): Promise<MajorRun> {
  const store: RecordStore = createRecordStore({ driver: createMemoryDriver() });
  const handler = createChatHandler({
    store,
    models: registry(major, fixture),
    tools: replayToolCatalog(fixture.providerTools),
    auth: { secret: SECRET },
    summarizerModelId: false,
    maxRetries: REPLAY_MAX_RETRIES,
  });
  const token = await signToken('alice');
  const created = await handler(
    new Request('http://localhost/api/ai/chats', { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: '{}' }),
  );
  const chatId = ((await created.json()) as { chat: { recordId: string } }).chat.recordId;
  const run = await sendTurn({ handler, token, chatId }, provider, fixture, 'u-1');
  const rows = (await store.asServer().query(AI_TURNS, { limit: 10 })).records;
  const row = rows[0]?.data as Record<string, unknown> | undefined;
  const turnRow = row
    ? { modelId: row.modelId, provider: row.provider, finishReason: row.finishReason, usage: row.usage, steps: row.steps, toolCalls: row.toolCalls }
    : null;
  return { ...run, turnRow };
}
