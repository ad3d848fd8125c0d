/**
 * Compaction cost on a long history: 10,000 messages, 500 of them tool results of ~50 KB JSON each (~25 MB).
 * `compactHistory` on the non-summarizing path (summarize: null, default config) against one
 * `JSON.stringify` of the same history, both timed in this run (median of interleaved runs).
 * Goal: within 3x of the stringify. `--quick`: 3 timed runs after 1 warm-up instead of 9 after 2.
 */
import type { ModelMessage } from 'ai';
import { compactHistory, compactStepMessages, DEFAULT_COMPACTION_CONFIG, type HistoryEntry } from '../packages/core/src/compaction/index.js';
import type { BenchRow } from './bench-row.js';
import { sized } from './support/quick.js';

const MESSAGES = 10_000;
const TOOL_RESULTS = 500;
const RESULT_BYTES = 50_000;
const RUNS = sized(9, 3);
const WARMUP = sized(2, 1);

function payload(n: number): { rows: { id: string; name: string; note: string; amount: number }[] } {
  const rows = [];
  let size = 0;
  for (let i = 0; size < RESULT_BYTES; i++) {
    const row = { id: `rec-${n}-${i}`, name: `Customer ${i} of result ${n}`, note: 'lorem ipsum dolor sit amet, consectetur '.repeat(3), amount: i * 17.5 };
    size += JSON.stringify(row).length + 1;
    rows.push(row);
  }
  return { rows };
}

function buildHistory(): HistoryEntry[] {
  const entries: HistoryEntry[] = [];
  // user/assistant pairs; every 9th assistant row is call + 50 KB result + answer: 2*4500 + 2*500 = 10,000 messages
  const pairs = (MESSAGES - 2 * TOOL_RESULTS) / 2;
  const every = Math.floor(pairs / TOOL_RESULTS);
  let results = 0;
  for (let i = 0; i < pairs; i++) {
    entries.push({ id: `u${i}`, messages: [{ role: 'user', content: `Question ${i}: what about the records of batch ${i}?` }] });
    if (i % every === every - 1 && results < TOOL_RESULTS) {
      const id = `call-${results}`;
      const messages: ModelMessage[] = [
        { role: 'assistant', content: [{ type: 'tool-call', toolCallId: id, toolName: 'records_query', input: { collection: 'customers', batch: i } }] },
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: id, toolName: 'records_query', output: { type: 'json', value: payload(results) } }] },
        { role: 'assistant', content: `Batch ${i} has the records shown above.` },
      ];
      entries.push({ id: `a${i}`, messages });
      results++;
    } else {
      entries.push({ id: `a${i}`, messages: [{ role: 'assistant', content: `Answer ${i}: nothing special in batch ${i}.` }] });
    }
  }
  return entries;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

export default async function compactionBench(): Promise<BenchRow[]> {
  const entries = buildHistory();
  const flat = entries.flatMap((e) => e.messages);
  const messageCount = flat.length;
  let sink = 0;

  const stringifyMs: number[] = [];
  const compactMs: number[] = [];
  const stepMs: number[] = [];
  let report;
  for (let run = 0; run < RUNS + WARMUP; run++) {
    let t = performance.now();
    sink += JSON.stringify(entries).length;
    const s = performance.now() - t;

    t = performance.now();
    const outcome = await compactHistory(entries, { config: DEFAULT_COMPACTION_CONFIG, summarize: null });
    const c = performance.now() - t;
    report = outcome.report;
    sink += outcome.messages.length;

    t = performance.now();
    sink += compactStepMessages(flat, DEFAULT_COMPACTION_CONFIG).messages.length;
    const p = performance.now() - t;

    if (run >= WARMUP) {
      stringifyMs.push(s);
      compactMs.push(c);
      stepMs.push(p);
    }
  }
  if (sink === 0 || report === undefined) throw new Error('benchmark did no work');

  const base = median(stringifyMs);
  const compact = median(compactMs);
  const step = median(stepMs);
  const history = `${messageCount} msgs, ${TOOL_RESULTS} x ${RESULT_BYTES / 1000} KB results, ${(report.charsBefore / 1e6).toFixed(1)} M chars`;
  return [
    { group: 'compaction', name: `JSON.stringify of the history (${history})`, value: base, unit: 'ms', note: 'baseline' },
    {
      group: 'compaction',
      name: 'compactHistory, summarize: null, default config',
      value: compact,
      unit: 'ms',
      ratio: { value: compact / base, against: 'JSON.stringify' },
      goal: '<= 3x JSON.stringify',
      met: compact / base <= 3,
      note: `kept ${report.charsAfter} chars, dropped ${report.droppedEntries} entries, truncated ${report.truncatedToolResults} results`,
    },
    {
      group: 'compaction',
      name: 'compactStepMessages on the same messages',
      value: step,
      unit: 'ms',
      ratio: { value: step / base, against: 'JSON.stringify' },
    },
  ];
}
