import type { ModelMessage, ToolResultPart } from 'ai';
import type { CompactionConfig, ConversationSummary, HistoryEntry, Summarizer } from '../compaction-types.js';
import { createRandom, type Random } from './seeded-random.js';

export type SummarizerKind = 'none' | 'short' | 'long' | 'throws' | 'empty';

export interface RandomCase {
  entries: HistoryEntry[];
  /** The turn's in-flight steps after the newest user message (for compactStepMessages). */
  steps: ModelMessage[];
  config: CompactionConfig;
  cachedSummary: ConversationSummary | null;
  summarizerKind: SummarizerKind;
}

const WORDS = ['invoice', 'record', 'Zoë', 'naïve', '日本', '😀', 'total', 'query', '"quoted"', 'line\nbreak', 'x'];

function text(r: Random, maxChars: number): string {
  const target = r.int(1, maxChars);
  let out = '';
  while (out.length < target) out += `${r.pick(WORDS)} `;
  return out;
}

function result(r: Random, id: string): ToolResultPart {
  const big = r.chance(0.3);
  const size = big ? 6000 : 300;
  const kind = r.int(0, 9);
  const base = { type: 'tool-result' as const, toolCallId: id, toolName: r.pick(['records_query', 'records_get']) };
  if (kind < 6) return { ...base, output: { type: 'json', value: { id, rows: Array.from({ length: r.int(1, 5) }, () => text(r, size / 4)) } } };
  if (kind < 8) return { ...base, output: { type: 'text', value: text(r, size) } };
  return { ...base, output: { type: 'error-text', value: text(r, 200) } };
}

/** Assistant/tool messages of one or more tool steps, ending with an assistant text; sometimes broken. */
function toolSteps(r: Random, prefix: string): ModelMessage[] {
  const out: ModelMessage[] = [];
  const steps = r.int(1, 3);
  for (let s = 0; s < steps; s++) {
    const ids = Array.from({ length: r.int(1, 3) }, (_, k) => `${prefix}-${s}-${k}`);
    out.push({
      role: 'assistant',
      content: [
        ...(r.chance(0.5) ? [{ type: 'text' as const, text: text(r, 100) }] : []),
        ...ids.map((id) => ({ type: 'tool-call' as const, toolCallId: id, toolName: 'records_query', input: { id } })),
      ],
    });
    const answered = r.chance(0.08) ? ids.slice(1) : ids; // an aborted call now and then
    if (answered.length > 0) out.push({ role: 'tool', content: answered.map((id) => result(r, id)) });
    if (r.chance(0.04)) out.push({ role: 'tool', content: [result(r, `${prefix}-stray`)] }); // a result without call
  }
  if (r.chance(0.8)) out.push({ role: 'assistant', content: text(r, 400) });
  return out;
}

export function randomCase(seed: number): RandomCase {
  const r = createRandom(seed);
  const entries: HistoryEntry[] = [];
  const rows = r.int(0, 40);
  for (let i = 0; i < rows; i++) {
    const id = `row-${i}`;
    if (i % 2 === 0) entries.push({ id, messages: [{ role: 'user', content: text(r, r.chance(0.1) ? 3000 : 400) }] });
    else entries.push({ id, messages: r.chance(0.5) ? toolSteps(r, id) : [{ role: 'assistant', content: text(r, 600) }] });
  }
  entries.push({ id: 'newest', messages: [{ role: 'user', content: text(r, 300) }] });
  const steps = r.chance(0.6) ? toolSteps(r, 'turn') : [];
  if (typeof steps.at(-1)?.content === 'string') steps.pop(); // prepareStep runs after a tool step

  const contextBudget = r.int(1500, 30000);
  const toolResultCap = r.int(256, Math.min(5000, contextBudget - 1));
  const config: CompactionConfig = {
    contextBudget,
    toolResultCap,
    keepRecentToolResults: r.int(0, 5),
    minKept: r.int(1, 10),
    summarizerTimeoutMs: 1000,
    oldToolResultBytes: r.int(0, Math.min(toolResultCap, 1500)),
  };

  const summaryRoll = r.int(0, 19);
  const pickId = () => (entries[r.int(0, entries.length - 1)] as HistoryEntry).id;
  const cachedSummary =
    summaryRoll < 6 ? null : { text: text(r, summaryRoll < 17 ? 300 : 2000), throughId: summaryRoll < 16 ? pickId() : 'missing-row' };
  const summarizerKind = r.pick<SummarizerKind>(['none', 'short', 'short', 'long', 'throws', 'empty']);
  return { entries, steps, config, cachedSummary, summarizerKind };
}

/** A deterministic fake summarizer of the given kind, counting its calls. */
export function fakeSummarizer(kind: SummarizerKind): { summarize: Summarizer | null; calls: () => number } {
  let calls = 0;
  if (kind === 'none') return { summarize: null, calls: () => calls };
  const summarize: Summarizer = async ({ messages, previousSummary }) => {
    calls++;
    if (kind === 'throws') throw new Error('summarizer down');
    if (kind === 'empty') return '';
    const head = `summary of ${messages.length} messages${previousSummary ? ` after ${previousSummary.length} chars` : ''}`;
    return kind === 'long' ? head.padEnd(4000, '.') : head;
  };
  return { summarize, calls: () => calls };
}
