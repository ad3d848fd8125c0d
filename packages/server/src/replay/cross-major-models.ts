import type { ModelId } from '@chatwire/core';
import { createAnthropic as createAnthropicV6 } from 'anthropic-v6';
import { createAnthropic as createAnthropicV7 } from 'anthropic-v7';
import { createOpenAICompatible as createOpenAICompatibleV6 } from 'openai-compatible-v6';
import { createOpenAICompatible as createOpenAICompatibleV7 } from 'openai-compatible-v7';
import { createOpenAI as createOpenAIV6 } from 'openai-v6';
import { createOpenAI as createOpenAIV7 } from 'openai-v7';
import { REPLAY_BASE_URLS } from './replay-provider.js';

/** The AI SDK majors whose provider packages an app may bring models from, besides chatwire's own (v5). */
export type NewerMajor = 'v6' | 'v7';

const FACTORIES = {
  v6: { anthropic: createAnthropicV6, openai: createOpenAIV6, compatible: createOpenAICompatibleV6 },
  v7: { anthropic: createAnthropicV7, openai: createOpenAIV7, compatible: createOpenAICompatibleV7 },
} as const;

/** The provider each chatwire id of the fixtures is served by (its name is configuration, not a spec matter). */
export function replayProviderName(modelId: ModelId): 'provider_a' | 'provider_b' | 'provider_c' {
  if (modelId.startsWith('alpha')) return 'provider_a';
  if (modelId.startsWith('beta')) return 'provider_b';
  return 'provider_c';
}

/**
 * The app's own model for a fixture, built with that major's provider package and pointed at the replayed
 * provider: Anthropic Messages, OpenAI Responses or OpenAI-compatible chat completions (with usage), as
 * chatwire's own three providers speak them.
 */
export function newerMajorModel(major: NewerMajor, modelId: ModelId) {
  const factories = FACTORIES[major];
  switch (replayProviderName(modelId)) {
    case 'provider_a':
      return factories.anthropic({ baseURL: REPLAY_BASE_URLS.provider_a, apiKey: 'replay-key' })(modelId);
    case 'provider_b':
      return factories.openai({ baseURL: REPLAY_BASE_URLS.provider_b, apiKey: 'replay-key' }).responses(modelId);
    case 'provider_c':
      return factories.compatible({ name: 'provider_c', baseURL: REPLAY_BASE_URLS.provider_c, apiKey: 'replay-key', includeUsage: true }).chatModel(modelId);
  }
}
