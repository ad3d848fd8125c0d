import type { LanguageModelV2FinishReason, LanguageModelV2Usage } from '@ai-sdk/provider';
import type { LanguageModelV3FinishReason, LanguageModelV3Usage } from 'provider-v6';
import type { LanguageModelV4FinishReason, LanguageModelV4Usage } from 'provider-v7';

/**
 * A `v3`/`v4` finish reason (`{ unified, raw }`) as the `v2` string: the unified reason; `v4`'s `interrupted`,
 * which `v2` lacks, is `other`.
 */
export function v3FinishReasonToV2(reason: LanguageModelV3FinishReason | LanguageModelV4FinishReason): LanguageModelV2FinishReason {
  const unified = typeof reason === 'string' ? (reason as string) : reason?.unified;
  switch (unified) {
    case 'stop':
    case 'length':
    case 'content-filter':
    case 'tool-calls':
    case 'error':
      return unified;
    default:
      return 'other';
  }
}

/**
 * `v3`/`v4` usage (input and output counts with their details) as `v2`'s flat counts, as AI SDK 6 reads it:
 * the totals, reasoning tokens from the output details, cached input tokens from the cache reads, and the
 * total as input plus output.
 */
export function v3UsageToV2(usage: LanguageModelV3Usage | LanguageModelV4Usage | undefined): LanguageModelV2Usage {
  const inputTokens = usage?.inputTokens?.total;
  const outputTokens = usage?.outputTokens?.total;
  return {
    inputTokens,
    outputTokens,
    totalTokens: inputTokens == null && outputTokens == null ? undefined : (inputTokens ?? 0) + (outputTokens ?? 0),
    reasoningTokens: usage?.outputTokens?.reasoning,
    cachedInputTokens: usage?.inputTokens?.cacheRead,
  };
}
