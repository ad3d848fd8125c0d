import type { LanguageModelV2CallOptions } from '@ai-sdk/provider';

/**
 * `providerOptions.anthropic` keys that cannot make the answer hold a block the fast path does not parse.
 * Left out, so such a call goes through @ai-sdk/anthropic: `container` (code execution, skills),
 * `contextManagement` (compaction blocks, context management), `fallbacks` (fallback blocks, iterations),
 * `structuredOutputMode` (JSON answers), `taskBudget` and `anthropicBeta` (features not read here), and
 * any key unknown to this list.
 */
const SAFE_ANTHROPIC_OPTIONS = new Set(['sendReasoning', 'thinking', 'disableParallelToolUse', 'cacheControl', 'metadata', 'effort', 'speed', 'inferenceGeo']);

/**
 * Whether a stream call can take the fast path: no raw chunks, no JSON response format (the package answers
 * it through a JSON tool), only function tools (no provider-defined tools: web search, code execution...),
 * no `anthropic-beta` header, no document with citations enabled, and only the `providerOptions.anthropic`
 * keys above. The fast path reads text, reasoning (thinking, redacted thinking, signatures) and tool calls.
 */
export function fastPathEligible(options: LanguageModelV2CallOptions): boolean {
  if (options.includeRawChunks === true) return false;
  if (options.responseFormat?.type === 'json') return false;
  if (options.tools?.some((tool) => tool.type !== 'function')) return false;
  if (options.headers !== undefined && Object.keys(options.headers).some((name) => name.toLowerCase() === 'anthropic-beta')) return false;
  const anthropic = options.providerOptions?.['anthropic'];
  if (anthropic !== undefined && Object.keys(anthropic).some((key) => !SAFE_ANTHROPIC_OPTIONS.has(key))) return false;
  for (const message of options.prompt) {
    if (message.role !== 'user') continue;
    for (const part of message.content) {
      if (part.type !== 'file') continue;
      const citations = part.providerOptions?.['anthropic']?.['citations'] as { enabled?: unknown } | undefined;
      if (citations?.enabled) return false;
    }
  }
  return true;
}
