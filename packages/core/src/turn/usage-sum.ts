import type { LanguageModelUsage } from 'ai';

type Field = 'inputTokens' | 'outputTokens' | 'totalTokens' | 'reasoningTokens' | 'cachedInputTokens';
const FIELDS: readonly Field[] = ['inputTokens', 'outputTokens', 'totalTokens', 'reasoningTokens', 'cachedInputTokens'];

/** Token usage summed over the finished steps of a turn; a field no step reported stays undefined. */
export class UsageSum {
  readonly total: LanguageModelUsage = {
    inputTokens: undefined,
    outputTokens: undefined,
    totalTokens: undefined,
  };

  add(step: LanguageModelUsage): void {
    for (const field of FIELDS) {
      const value = step[field];
      if (typeof value === 'number') this.total[field] = (this.total[field] ?? 0) + value;
    }
  }
}
