import type { ModelMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { compactHistory } from './compact-history.js';
import { createCompactionConfig } from './compaction-config.js';
import type { HistoryEntry, Summarizer } from './compaction-types.js';
import { measureMessages } from './message-size.js';
import { createSummaryMessage } from './summary-message.js';
import {
  assertPaired,
  assistant,
  chatHistory,
  deepFreeze,
  entry,
  jsonResult,
  toolCall,
  toolMessage,
  toolRow,
  user,
} from './testing/history-fixtures.js';

const config = createCompactionConfig({ contextBudget: 3000, toolResultCap: 1000, keepRecentToolResults: 2, minKept: 2, oldToolResultBytes: 200 });
const msgs = (entries: HistoryEntry[]) => entries.flatMap((e) => e.messages);

/** A summarizer that records its calls and answers "S<n>". */
function recordingSummarizer(answer = (n: number) => `S${n}`) {
  const calls: Parameters<Summarizer>[0][] = [];
  const summarize: Summarizer = async (input) => {
    calls.push(input);
    return answer(calls.length);
  };
  return { calls, summarize };
}

describe('compactHistory: stages', () => {
  it('returns a small history unchanged', async () => {
    const entries = deepFreeze([...chatHistory(2, 50), entry('new', user('latest'))]);
    const outcome = await compactHistory(entries, { config });
    expect(outcome.messages).toEqual(msgs(entries));
    expect(outcome.summary).toBeNull();
    expect(outcome.report).toMatchObject({ stages: [], droppedEntries: 0, withinBudget: true });
    expect(outcome.report.charsBefore).toBe(JSON.stringify(msgs(entries)).length);
    expect(outcome.report.charsAfter).toBe(outcome.report.charsBefore);
  });

  it('stage 1: truncates old tool results and caps recent ones', async () => {
    const entries = [entry('u0', user('go')), toolRow('r1', 'c1', 'a'.repeat(600)), toolRow('r2', 'c2', 'b'.repeat(600)), toolRow('r3', 'c3', 'c'.repeat(1500)), entry('u1', user('next'))];
    const outcome = await compactHistory(entries, { config: { ...config, contextBudget: 100000 } });
    const results = outcome.messages.flatMap((m) => (m.role === 'tool' ? m.content : []));
    expect(results.map((r) => r.output.type)).toEqual(['text', 'json', 'text']);
    expect(outcome.report.stages).toEqual(['truncate']);
    expect(outcome.report.truncatedToolResults).toBe(2);
  });

  it('stage 2: replaces the entries through throughId with the cached summary message, placed first', async () => {
    const entries = [...chatHistory(3, 50), entry('new', user('latest'))];
    const cachedSummary = { text: 'they talked about e0..e3', throughId: 'e3' };
    const { calls, summarize } = recordingSummarizer();
    const outcome = await compactHistory(entries, { config, cachedSummary, summarize });
    expect(outcome.messages).toEqual([createSummaryMessage(cachedSummary.text), ...msgs(entries.slice(4))]);
    expect(outcome.messages[0]).toEqual({ role: 'user', content: 'Summary of the earlier conversation:\nthey talked about e0..e3' });
    expect(outcome.report.stages).toEqual(['cached-summary']);
    expect(outcome.summary).toBeNull();
    expect(outcome.activeSummary).toEqual(cachedSummary);
    expect(calls).toHaveLength(0);
  });

  it('stage 2: ignores a cached summary whose throughId is not among the entries', async () => {
    const entries = [...chatHistory(3, 50), entry('new', user('latest'))];
    const outcome = await compactHistory(entries, { config, cachedSummary: { text: 'stale', throughId: 'gone' } });
    expect(outcome.messages).toEqual(msgs(entries));
    expect(outcome.activeSummary).toBeNull();
  });

  it('stage 2: ignores a cached summary with empty text', async () => {
    const entries = [...chatHistory(3, 50), entry('new', user('latest'))];
    const outcome = await compactHistory(entries, { config, cachedSummary: { text: '  ', throughId: 'e3' } });
    expect(outcome.messages).toEqual(msgs(entries));
  });

  it('stage 2: never summarizes away the newest user message', async () => {
    const entries = [...chatHistory(1, 50), entry('new', user('latest'))];
    const outcome = await compactHistory(entries, { config, cachedSummary: { text: 'odd', throughId: 'new' } });
    expect(outcome.messages).toEqual(msgs(entries));
  });

  it('stage 3: summarizes the older half, folding in the previous summary', async () => {
    const entries = [...chatHistory(10, 200), entry('new', user('latest'))]; // 21 entries, ~4.6K chars
    const { calls, summarize } = recordingSummarizer();
    const cachedSummary = { text: 'old summary', throughId: 'e1' };
    const outcome = await compactHistory(entries, { config, cachedSummary, summarize });
    // after the cache: 19 entries (e2..e19, new); older half = 9 entries e2..e10
    expect(calls).toHaveLength(1);
    expect(calls[0]?.previousSummary).toBe('old summary');
    expect(calls[0]?.messages).toEqual(msgs(entries.slice(2, 11)));
    expect(outcome.summary).toEqual({ text: 'S1', throughId: 'e10' });
    expect(outcome.activeSummary).toEqual(outcome.summary);
    expect(outcome.messages).toEqual([createSummaryMessage('S1'), ...msgs(entries.slice(11))]);
    expect(outcome.report.stages).toEqual(['cached-summary', 'summarize']);
    expect(outcome.report.summarizedEntries).toBe(9);
    expect(outcome.report.withinBudget).toBe(true);
  });

  it('stage 3: hands the summarizer the truncated tool results, not the raw ones', async () => {
    const entries = [entry('u0', user('go')), toolRow('r1', 'c1', 'x'.repeat(5000)), ...chatHistory(6, 300, 'm'), entry('new', user('latest'))];
    const { calls, summarize } = recordingSummarizer();
    await compactHistory(entries, { config, summarize });
    expect(JSON.stringify(calls[0]?.messages)).toContain('[tool result truncated');
    expect(JSON.stringify(calls[0]?.messages).length).toBeLessThan(3000);
  });

  it('stage 4: without a summarizer, drops the oldest entries until within budget', async () => {
    const entries = [...chatHistory(10, 200), entry('new', user('latest'))];
    const outcome = await compactHistory(entries, { config, summarize: null });
    expect(outcome.report.stages).toEqual(['window']);
    expect(outcome.report.withinBudget).toBe(true);
    const kept = outcome.messages.length;
    expect(outcome.messages).toEqual(msgs(entries.slice(entries.length - kept)));
    // only as many as needed: one more entry would not fit
    expect(measureMessages(msgs(entries.slice(entries.length - kept - 1)))).toBeGreaterThan(config.contextBudget);
    expect(outcome.report.droppedEntries).toBe(entries.length - kept);
  });

  it('stage 4: keeps the summary and drops conversation entries after it first', async () => {
    const entries = [...chatHistory(10, 200), entry('new', user('latest'))];
    const { summarize } = recordingSummarizer(() => 'short summary');
    const outcome = await compactHistory(entries, { config: { ...config, contextBudget: 1500 }, summarize });
    expect(outcome.report.stages).toEqual(['summarize', 'window']);
    expect(outcome.messages[0]).toEqual(createSummaryMessage('short summary'));
    expect(outcome.messages.at(-1)).toEqual(user('latest'));
    expect(outcome.report.withinBudget).toBe(true);
  });
});

describe('compactHistory: invariants', () => {
  it('never separates a tool call from its result (entries are atomic; orphans are dropped)', async () => {
    const entries = [
      entry('u0', user('go')),
      entry('orphan', toolCall('lost')), // an aborted turn: a call without result
      toolRow('r1', 'c1', { n: 1 }),
      entry('u1', user('more'.padEnd(600, '.'))),
      toolRow('r2', 'c2', { n: 2, pad: 'p'.repeat(700) }),
      entry('u2', user('and more'.padEnd(600, '.'))),
      entry('new', user('latest')),
    ];
    for (const contextBudget of [500, 1200, 1800, 2500, 10000]) {
      const outcome = await compactHistory(entries, { config: { ...config, contextBudget, toolResultCap: 300, minKept: 1 } });
      assertPaired(outcome.messages);
      const calls = JSON.stringify(outcome.messages).match(/"tool-call"/g)?.length ?? 0;
      const results = JSON.stringify(outcome.messages).match(/"tool-result"/g)?.length ?? 0;
      expect(calls).toBe(results);
      expect(JSON.stringify(outcome.messages)).not.toContain('"lost"');
    }
  });

  it('always keeps the newest user message, even when it alone is over budget', async () => {
    const huge = user('x'.repeat(5000));
    const entries = [...chatHistory(3, 100), entry('new', huge)];
    const outcome = await compactHistory(entries, { config: { ...config, minKept: 1 } });
    expect(outcome.messages).toEqual([huge]);
    expect(outcome.report.withinBudget).toBe(false);
  });

  it('starts with a user message after dropping', async () => {
    const entries = [entry('u0', user('a'.repeat(900))), toolRow('r1', 'c1', { n: 1 }, 'b'.repeat(900)), entry('u1', user('latest'))];
    const outcome = await compactHistory(entries, { config: { ...config, contextBudget: 1200, minKept: 1 } });
    expect(outcome.messages[0]?.role).toBe('user');
    expect(outcome.messages).toEqual([user('latest')]);
  });

  it('is within budget whenever the minKept floor allows it', async () => {
    const entries = [...chatHistory(30, 150), entry('new', user('latest'))];
    for (const contextBudget of [400, 700, 1500, 2600, 5000]) {
      for (const minKept of [1, 2, 4]) {
        const cfg = { ...config, contextBudget, toolResultCap: 300, minKept };
        const outcome = await compactHistory(entries, { config: cfg });
        // smallest suffix that starts with a user message and has at least minKept messages (one message per entry)
        let from = entries.length - minKept;
        while (entries[from]?.messages[0]?.role !== 'user') from--;
        const floor = msgs(entries.slice(from));
        const possible = measureMessages(floor) <= contextBudget;
        expect(outcome.report.withinBudget).toBe(measureMessages(outcome.messages) <= contextBudget);
        if (possible) expect(outcome.report.withinBudget, `budget ${contextBudget} minKept ${minKept}`).toBe(true);
        else expect(outcome.messages).toEqual(floor);
      }
    }
  });

  it('is deterministic and does not modify its input', async () => {
    const entries = deepFreeze([entry('u0', user('go')), toolRow('r1', 'c1', 'x'.repeat(3000)), ...chatHistory(10, 200), entry('new', user('latest'))]);
    const before = JSON.stringify(entries);
    const run = () => compactHistory(entries, { config, summarize: recordingSummarizer().summarize, cachedSummary: { text: 'c', throughId: 'u0' } });
    const [a, b] = [await run(), await run()];
    expect(a).toEqual(b);
    expect(JSON.stringify(entries)).toBe(before);
  });

  it('calls the summarizer at most once per call', async () => {
    const entries = [...chatHistory(40, 300), entry('new', user('latest'))]; // far over budget even after one summary
    const { calls, summarize } = recordingSummarizer(() => 'y'.repeat(2000));
    const outcome = await compactHistory(entries, { config, summarize });
    expect(calls).toHaveLength(1);
    expect(outcome.report.stages).toEqual(['summarize', 'window']);
  });

  it('does not call the summarizer when the cached summary brings the history within budget', async () => {
    const entries = [...chatHistory(10, 200), entry('new', user('latest'))];
    expect(measureMessages(msgs(entries))).toBeGreaterThan(config.contextBudget);
    const { calls, summarize } = recordingSummarizer();
    const outcome = await compactHistory(entries, { config, summarize, cachedSummary: { text: 'c', throughId: 'e13' } });
    expect(calls).toHaveLength(0);
    expect(outcome.report.stages).toEqual(['cached-summary']);
    expect(outcome.report.withinBudget).toBe(true);
  });
});

describe('compactHistory: summarizer failure', () => {
  const entries = [...chatHistory(10, 200), entry('new', user('latest'))];

  it('falls back to the window when the summarizer throws, and says why', async () => {
    const outcome = await compactHistory(entries, {
      config,
      summarize: async () => {
        throw new Error('rate limited');
      },
    });
    expect(outcome.summary).toBeNull();
    expect(outcome.report.summarizerError).toBe('summarizer failed: rate limited');
    expect(outcome.report.stages).toEqual(['window']);
    expect(outcome.report.withinBudget).toBe(true);
    expect(outcome.messages.at(-1)).toEqual(user('latest'));
  });

  it('falls back to the window when the summarizer times out', async () => {
    const outcome = await compactHistory(entries, { config: { ...config, summarizerTimeoutMs: 20 }, summarize: () => new Promise<string>(() => {}) });
    expect(outcome.summary).toBeNull();
    expect(outcome.report.summarizerError).toBe('summarizer timed out after 20 ms');
    expect(outcome.report.stages).toEqual(['window']);
  });

  it('falls back to the window when the abort signal fires', async () => {
    const controller = new AbortController();
    const pending = compactHistory(entries, { config, summarize: () => new Promise<string>(() => {}), abortSignal: controller.signal });
    controller.abort();
    const outcome = await pending;
    expect(outcome.report.summarizerError).toMatch(/^summarizer aborted by the caller's abort signal/);
    expect(outcome.report.stages).toEqual(['window']);
  });

  it('keeps the cached summary when the new summarization fails', async () => {
    const outcome = await compactHistory(entries, {
      config,
      cachedSummary: { text: 'c', throughId: 'e1' },
      summarize: async () => {
        throw new Error('down');
      },
    });
    expect(outcome.messages[0]).toEqual(createSummaryMessage('c'));
    expect(outcome.report.stages).toEqual(['cached-summary', 'window']);
  });
});

describe('compactHistory: edge cases', () => {
  it('handles an empty history', async () => {
    const outcome = await compactHistory([], { config });
    expect(outcome.messages).toEqual([]);
    expect(outcome.report.withinBudget).toBe(true);
  });

  it('throws CONFIGURATION for an invalid hand-built config', async () => {
    await expect(compactHistory([], { config: { ...config, minKept: 0 } })).rejects.toMatchObject({ code: 'CONFIGURATION' });
  });

  it('protects the turn in flight after the newest user message', async () => {
    const steps: ModelMessage[] = [toolCall('s1'), toolMessage(jsonResult('s1', 'z'.repeat(800)))];
    const entries = [...chatHistory(6, 200), entry('new', user('latest')), entry('steps', ...steps)];
    const outcome = await compactHistory(entries, { config: { ...config, contextBudget: 1200, minKept: 1 } });
    expect(outcome.messages).toEqual([user('latest'), ...steps]);
  });
});
