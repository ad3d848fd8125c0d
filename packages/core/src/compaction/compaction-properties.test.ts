import type { ModelMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { compactHistory } from './compact-history.js';
import { compactStepMessages } from './compact-step-messages.js';
import { measureMessages } from './message-size.js';
import { sanitizeToolPairs } from './sanitize-tool-pairs.js';
import { createSummaryMessage } from './summary-message.js';
import { truncateToolResults } from './truncate-tool-results.js';
import { assertPaired, deepFreeze } from './testing/history-fixtures.js';
import { fakeSummarizer, randomCase } from './testing/random-history.js';

const CASES = 300;
const bytes = (text: string) => new TextEncoder().encode(text).length;

/**
 * The smallest prompt the window may leave: the shortest suffix that starts with a user message (at or before
 * the newest one) and holds at least `minKept` messages, after truncation and orphan removal.
 */
function floorPrompt(truncated: ModelMessage[], minKept: number): ModelMessage[] {
  const lastUser = truncated.findLastIndex((m) => m.role === 'user');
  let from = lastUser;
  while (from > 0 && truncated.length - from < minKept) {
    from--;
    while (from > 0 && truncated[from]?.role !== 'user') from--;
  }
  return sanitizeToolPairs(truncated.slice(from)).messages;
}

function checkShape(messages: ModelMessage[], seed: number, cap: number) {
  assertPaired(messages);
  expect(messages[0]?.role, `seed ${seed}: starts with user`).toBe('user');
  for (const m of messages) {
    if (m.role !== 'tool') continue;
    for (const part of m.content) {
      const payload = typeof part.output.value === 'string' && part.output.type.endsWith('text') ? part.output.value : JSON.stringify(part.output.value);
      expect(bytes(payload), `seed ${seed}: tool result within cap`).toBeLessThanOrEqual(cap);
    }
  }
}

describe(`compaction properties over ${CASES} seeded random histories`, () => {
  it('compactHistory keeps every invariant', async () => {
    for (let seed = 1; seed <= CASES; seed++) {
      const c = randomCase(seed);
      const entries = deepFreeze(c.entries);
      const before = JSON.stringify(entries);
      const flat = entries.flatMap((e) => e.messages);
      const first = fakeSummarizer(c.summarizerKind);
      const outcome = await compactHistory(entries, { config: c.config, cachedSummary: c.cachedSummary, summarize: first.summarize });
      const { messages, report } = outcome;

      // pairs kept, starts with user, results capped
      checkShape(messages, seed, c.config.toolResultCap);
      // the newest user message is kept, last
      expect(messages.at(-1), `seed ${seed}: newest user kept`).toEqual(entries.at(-1)?.messages[0]);
      // report is truthful
      expect(report.charsBefore).toBe(JSON.stringify(flat).length);
      expect(report.charsAfter).toBe(JSON.stringify(messages).length);
      expect(report.withinBudget).toBe(report.charsAfter <= c.config.contextBudget);
      // within budget whenever the floor allows it
      const truncated = truncateToolResults(flat, c.config).messages;
      if (measureMessages(floorPrompt(truncated, c.config.minKept)) <= c.config.contextBudget) {
        expect(report.withinBudget, `seed ${seed}: within budget`).toBe(true);
      }
      // the summarizer: at most once, never when not needed, failures reported
      expect(first.calls()).toBeLessThanOrEqual(1);
      const cachedAt = c.cachedSummary ? entries.findIndex((e) => e.id === c.cachedSummary?.throughId) : -1;
      const afterCache =
        cachedAt >= 0 && cachedAt < entries.length - 1
          ? [createSummaryMessage(c.cachedSummary?.text ?? ''), ...truncated.slice(entries.slice(0, cachedAt + 1).flatMap((e) => e.messages).length)]
          : truncated;
      if (measureMessages(afterCache) <= c.config.contextBudget) expect(first.calls(), `seed ${seed}: no needless summary`).toBe(0);
      expect(report.summarizerError !== undefined).toBe(first.calls() === 1 && (c.summarizerKind === 'throws' || c.summarizerKind === 'empty'));
      expect(outcome.summary !== null).toBe(report.stages.includes('summarize'));
      if (outcome.summary) expect(entries.slice(0, -1).some((e) => e.id === outcome.summary?.throughId)).toBe(true);
      // deterministic, input untouched
      const again = await compactHistory(entries, { config: c.config, cachedSummary: c.cachedSummary, summarize: fakeSummarizer(c.summarizerKind).summarize });
      expect(again, `seed ${seed}: deterministic`).toEqual(outcome);
      expect(JSON.stringify(entries)).toBe(before);
    }
  }, 60_000); // 300 cases: seconds on a loaded 2-core machine

  it('compactStepMessages keeps every invariant', () => {
    for (let seed = 1; seed <= CASES; seed++) {
      const c = randomCase(seed + 10_000);
      const history = c.entries.flatMap((e) => e.messages);
      const input = deepFreeze([...(seed % 3 === 0 ? [createSummaryMessage('earlier')] : []), ...history, ...c.steps]);
      const { messages, report } = compactStepMessages(input, c.config);

      checkShape(messages, seed, c.config.toolResultCap);
      const truncated = truncateToolResults(input, c.config).messages;
      // the newest user message and the turn's steps after it are all kept
      const lastUser = truncated.findLastIndex((m) => m.role === 'user');
      const tail = sanitizeToolPairs(truncated.slice(lastUser)).messages;
      expect(messages.slice(-tail.length), `seed ${seed}: turn kept`).toEqual(tail);
      expect(report.charsAfter).toBe(JSON.stringify(messages).length);
      expect(report.withinBudget).toBe(report.charsAfter <= c.config.contextBudget);
      if (measureMessages(floorPrompt(truncated, c.config.minKept)) <= c.config.contextBudget) {
        expect(report.withinBudget, `seed ${seed}: within budget`).toBe(true);
      }
      expect(compactStepMessages(input, c.config)).toEqual({ messages, report });
    }
  }, 60_000); // 300 cases: seconds on a loaded 2-core machine
});
