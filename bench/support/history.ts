/**
 * The 200-message conversation every line carries: stored as rows for R2 (chatwire loads it from the
 * store), sent in the request body for R0 and R1 (a bare AI SDK route gets its history from the client).
 */
import type { ModelMessage } from 'ai';

const SENTENCE = 'Could you look at the order totals for last week and tell me which region grew fastest? ';

/** ~180 characters per message, alternating user / assistant. */
export function historyTexts(count: number): Array<{ role: 'user' | 'assistant'; text: string }> {
  return Array.from({ length: count }, (_, i) => ({
    role: i % 2 === 0 ? ('user' as const) : ('assistant' as const),
    text: `${i}: ${SENTENCE}${SENTENCE}`,
  }));
}

export const QUESTION = 'And the week before?';

/** The model messages R0 and R1 receive: the history plus the new question. */
export function historyModelMessages(count: number): ModelMessage[] {
  return [...historyTexts(count).map((m) => ({ role: m.role, content: m.text })), { role: 'user', content: QUESTION }];
}
