/**
 * `pnpm bench`: runs every `bench/*.bench.ts` (or those named on the command line) one after another,
 * prints one table, then the goals of issue #26 (the real path) and of issue #18 (chatwire's own share,
 * in-process) (rows picked by `BenchRow.id`), and writes the raw rows
 * to `bench/results/<timestamp>.json`. Flags (`--quick`: every bench shorter, see `support/quick.ts`) are
 * read by the benches themselves and never select files.
 */
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import os from 'node:os';
import type { BenchModule, BenchRow } from './bench-row.js';
import { QUICK } from './support/quick.js';

/** Issue #18 (performance): the measure, its value when the issue was filed, and the goal. */
const ISSUE_18: Array<{ id: string; measure: string; now: string; goal: string }> = [
  { id: 'mem-per-stream', measure: 'memory per open stream, chatwire / bare AI SDK route', now: '1.04x (287 KB)', goal: '<= 0.3x (80 KB or less; floor 61 KB)' },
  { id: 'cpu-per-chunk', measure: 'CPU per streamed chunk, chatwire / bare AI SDK route (whole turns)', now: '0.72x (whole turns: up to 0.98x)', goal: '<= 0.5x, on whole turns too' },
  { id: 'streams-held', measure: 'paced streams held with p99 gap <= 100 ms, chatwire / bare route', now: '1.2-2x (noisy)', goal: '>= 3x, stable over three runs' },
  { id: 'first-delta', measure: "first text delta after the provider's, p50", now: '+0.98 ms', goal: '<= +0.5 ms' },
  { id: 'list-chats-rps', measure: 'GET /chats requests/s, 50 keep-alive connections, chatwire / bare node:http JSON endpoint', now: 'about 0.2x', goal: '>= 0.7x' },
  { id: 'pg-list-messages', measure: "list one chat's 50 messages among 1M rows on PostgreSQL, p99", now: "204x a full scan's p50", goal: 'keep >= 100x' },
  { id: 'pg-list-chats', measure: 'GET /chats of a user with 10,000 chats on PostgreSQL, p99', now: '-', goal: ">= 100x a full scan's p50" },
  { id: 'quick-total', measure: '`pnpm bench --quick`, every bench, wall time', now: '-', goal: '< 180 s' },
];

/**
 * Issue #26 (the real path: one loopback Anthropic SSE provider, real provider packages over HTTP, whole
 * turns through HTTP; `turn-http.bench.ts`, `scale-out.bench.ts`): the measure, its value when the issue
 * was filed (now), and the goal. These are the headline figures; issue #18's are chatwire's own share.
 */
const ISSUE_26: Array<{ id: string; measure: string; now: string; goal: string }> = [
  { id: 'real-cpu-whole', measure: 'CPU per chunk, whole turns, R2 / R1', now: '0.58-0.67x (255-282 us; R1 418-437 us)', goal: '<= 0.5x R1' },
  { id: 'real-cpu-mid', measure: 'CPU per chunk, mid-stream, R2 / R0 floor', now: '4-5x (190-204 us; R0 41-47 us)', goal: '<= 2x R0' },
  { id: 'real-mem-rss', measure: 'memory per open stream, RSS', now: '141-144 KB (R1 345-357, R0 44-47)', goal: '<= 80 KB' },
  { id: 'real-mem-heap', measure: 'memory per open stream, heap + external', now: '138-139 KB (R1 271, R0 13-14)', goal: '<= 80 KB' },
  { id: 'real-held', measure: 'paced streams held (p99 gap <= 100 ms), three ramps on fresh processes', now: '2.4x R1 (300 vs 125; R0 1,400)', goal: '>= 3x R1 and >= 0.4x R0, each ramp' },
  { id: 'real-list-chats', measure: '`GET /chats` req/s, R2 / bare JSON endpoint', now: '0.47-0.49x', goal: '>= 0.7x' },
  { id: 'real-first-delta', measure: "first text delta after the provider's write, p50, R2 over R0", now: '+0.24 to +0.36 ms', goal: '<= +0.5 ms' },
  { id: 'scale-out', measure: 'streams held per process, 2 processes on PostgreSQL + Redis hub / 1 process', now: '-', goal: 'within 10 %' },
  { id: 'quick-total', measure: '`pnpm bench --quick`, every bench, wall time', now: '-', goal: '< 180 s' },
];

const here = dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
const files = (await readdir(here))
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();

/** Longest a bench file may run: a full `turn-http` takes ~9 min on 2 cores, a quick one under a minute. */
const HANG_S = QUICK ? 300 : 2_400;

const rows: BenchRow[] = [];
const runStarted = Date.now();
for (const file of files) {
  const started = Date.now();
  process.stdout.write(`running ${file} ... `);
  const mod = (await import(pathToFileURL(join(here, file)).href)) as { default: BenchModule };
  // A bench that hangs (a stream that never ends, a promise never settled) fails the run naming itself.
  const hung = setTimeout(() => {
    process.stderr.write(`\n${file} still running after ${HANG_S} s: stopped (a hang, not a slow bench)\n`);
    process.exit(1);
  }, HANG_S * 1000);
  const produced = await mod.default();
  clearTimeout(hung);
  rows.push(...produced);
  process.stdout.write(`${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}
const totalS = (Date.now() - runStarted) / 1000;
if (QUICK && only.length === 0) {
  rows.push({ group: 'run', name: `whole run, quick mode (${files.length} bench files)`, value: totalS, unit: 's', goal: '< 180 s', met: totalS < 180, id: 'quick-total' });
}

const fmt = (n: number) => (Math.abs(n) >= 100 ? n.toFixed(0) : Math.abs(n) >= 1 ? n.toFixed(2) : n.toPrecision(3));
const lines = [
  `| group | measure | value | ratio | goal |`,
  `|---|---|---|---|---|`,
  ...rows.map(
    (r) =>
      `| ${r.group} | ${r.name} | ${fmt(r.value)} ${r.unit} | ${r.ratio ? `${fmt(r.ratio.value)}x ${r.ratio.against}` : ''} | ${
        r.goal ? `${r.goal} ${r.met === undefined ? '' : r.met ? '(met)' : '(NOT met)'}` : ''
      } |`,
  ),
];

const goalTable = (list: typeof ISSUE_18) => list.map((goal) => {
  const row = rows.find((r) => r.id === goal.id);
  const measured = !row
    ? 'not run'
    : (row.summary ?? (row.ratio ? `${fmt(row.ratio.value)}x ${row.ratio.against} (${fmt(row.value)} ${row.unit})` : `${fmt(row.value)} ${row.unit}`));
  const met = !row ? '' : row.met === undefined ? '?' : row.met ? 'yes' : 'NO';
  return { ...goal, measured, met };
});
const goals = goalTable(ISSUE_18);
const realGoals = goalTable(ISSUE_26);
const table = (title: string, list: typeof goals) => [
  title,
  '',
  '| measure | now | measured (this run) | goal | met |',
  '|---|---|---|---|---|',
  ...list.map((g) => `| ${g.measure} | ${g.now} | ${g.measured} | ${g.goal} | ${g.met} |`),
];
const goalLines = [
  ...table(`Performance as users run it: real provider package over HTTP (issue #26)${QUICK ? ', quick mode' : ''}:`, realGoals),
  '',
  ...table(`chatwire's own share: in-process mock model, no provider package (issue #18)${QUICK ? ', quick mode' : ''}:`, goals),
];

const machine = `${os.cpus().length} x ${os.cpus()[0]?.model ?? 'cpu'}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`;
process.stdout.write(`\n${machine}; ${QUICK ? 'quick mode, ' : ''}${totalS.toFixed(0)} s in all\n\n${lines.join('\n')}\n\n${goalLines.join('\n')}\n`);

const out = join(here, 'results', `${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
await mkdir(dirname(out), { recursive: true });
await writeFile(out, JSON.stringify({ machine, date: new Date().toISOString(), quick: QUICK, seconds: totalS, rows, goals: realGoals, ownShareGoals: goals }, null, 2));
process.stdout.write(`\nraw results: ${out}\n`);
