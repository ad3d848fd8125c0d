import type { LanguageModelUsage } from 'ai';

/** No usage reported yet (every count unknown). */
export const NO_USAGE: LanguageModelUsage = { inputTokens: undefined, outputTokens: undefined, totalTokens: undefined };

/** The AI SDK's usage sum over steps: a count stays unknown only while it is unknown on both sides. */
export function addUsage(a: LanguageModelUsage, b: LanguageModelUsage): LanguageModelUsage {
  return {
    inputTokens: add(a.inputTokens, b.inputTokens),
    outputTokens: add(a.outputTokens, b.outputTokens),
    totalTokens: add(a.totalTokens, b.totalTokens),
    reasoningTokens: add(a.reasoningTokens, b.reasoningTokens),
    cachedInputTokens: add(a.cachedInputTokens, b.cachedInputTokens),
  };
}

function add(a: number | undefined, b: number | undefined): number | undefined {
  return a == null && b == null ? undefined : (a ?? 0) + (b ?? 0);
}
