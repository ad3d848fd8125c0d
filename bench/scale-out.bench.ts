/**
 * Scale-out: chatwire's server (the example's handler options from the environment, real `@ai-sdk/anthropic`
 * over HTTP to the loopback provider) on PostgreSQL (`CHATWIRE_TEST_DATABASE_URL`) with the Redis hub on
 * (`CHATWIRE_TEST_REDIS_URL`), tables and keys under a prefix of this bench's own. The same paced streams
 * (20 deltas/s, p99 gap <= 100 ms) held by one process, then by two processes sharing the database and Redis
 * (half the streams on each, one client process per server). Goal: streams held per process within 10 %
 * of one process's figure. Without both URLs the bench reports that it was skipped.
 * Full mode: one process ramped (doubling from 100, two bisection steps); two processes tried at twice that,
 * then at 1.8x (the goal's edge), then halving from 1.2x until they hold, and one bisection step. `--quick`: 1 s holds, no bisection step (one process: 100 only, so its figure is "held at least" and the ratio only says whether two processes hold as much; two
 * processes: twice that, else 1.8x).
 */
import type { BenchRow } from './bench-row.js';
import { QUICK, sized } from './support/quick.js';
import { startLine, startProvider, startStreamClient, type LineServer } from './support/real-path-children.js';
import { describeLevel, ramp, runLevel, type StreamClient } from './support/real-path-levels.js';

const HOLD_MS = sized(2_000, 1_000);
/**
 * Time to open a level's streams. Every open is an admission on the shared PostgreSQL (lease, rows, commit): at
 * ~80 opens/s a 20 s limit capped one process near 1,000 streams and two processes (sharing the database's
 * commits) at fewer, which measured the opening rate, not the streams held. Full mode gives a level 60 s to open.
 */
const OPEN_TIMEOUT_MS = sized(60_000, 10_000);
/** One process's ramp: doubling from START up to MAX (quick: 100 only, a figure that is "held at least"). */
const START = sized(50, 100);
const MAX = sized(3200, 100);
const PREFIX = 'bench_scale';
const GOAL = 0.9;

export default async function bench(): Promise<BenchRow[]> {
  const { CHATWIRE_TEST_DATABASE_URL: db, CHATWIRE_TEST_REDIS_URL: redis } = process.env;
  if (!db || !redis) {
    return [{ group: 'scale-out', name: 'skipped: set CHATWIRE_TEST_DATABASE_URL and CHATWIRE_TEST_REDIS_URL', value: 0, unit: '' }];
  }
  const provider = await startProvider();
  await provider.config(1_000_000, 50);
  const clients = [startStreamClient(), startStreamClient()];
  const servers: LineServer[] = [];
  const notes: string[] = [];
  try {
    const tryOn = (pairs: Array<{ server: LineServer; client: StreamClient }>, tag: string) => async (n: number) => {
      const level = await runLevel(pairs, n, HOLD_MS, OPEN_TIMEOUT_MS);
      notes.push(`${tag} ${describeLevel(level)}`);
      return level.held;
    };
    servers.push(await startLine('r2pg', provider.port, PREFIX));
    const one = await ramp(tryOn([{ server: servers[0]!, client: clients[0]! }], '1 process:'), START, MAX, sized(2, 0), sized(360_000, 40_000));
    servers[0]!.exit();
    servers.length = 0;
    servers.push(...(await Promise.all([startLine('r2pg', provider.port, PREFIX), startLine('r2pg', provider.port, PREFIX)])));
    const two = tryOn(servers.map((server, i) => ({ server, client: clients[i]! })), '2 processes:');
    // Total streams over both processes, rounded to 50 (25 per process).
    const total = (perProcess: number) => Math.round((2 * perProcess) / 50) * 50;
    let held = 0;
    let failed = 0;
    for (const perProcess of [one, Math.round(one * GOAL)]) {
      if (perProcess <= 0) break;
      if (await two(total(perProcess))) {
        held = total(perProcess);
        break;
      }
      failed = total(perProcess);
    }
    // Neither held: keep halving from 0.6x until two processes hold, so the row gives their figure, not 0.
    for (let fraction = 0.6; held === 0 && one > 0 && fraction >= 0.07; fraction /= 2) {
      const level = total(Math.round(one * fraction));
      if (level <= 0) break;
      if (await two(level)) held = level;
      else failed = level;
    }
    if (held > 0 && failed > 0 && !QUICK) {
      const mid = Math.round((held + failed) / 2 / 50) * 50;
      if (mid > held && mid < failed && (await two(mid))) held = mid;
    }
    const perProcess = held / 2;
    const ratio = one > 0 ? perProcess / one : Number.NaN;
    return [
      {
        group: 'scale-out',
        name: `chatwire on PostgreSQL + Redis hub, 1 process: streams held${QUICK ? ` (quick: ramped to ${MAX} at most)` : ''}`,
        value: one,
        unit: 'streams',
        note: notes.filter((n) => n.startsWith('1')).join('; '),
      },
      {
        group: 'scale-out',
        name: `2 processes sharing PostgreSQL and Redis: streams held per process (${held} in all)`,
        value: perProcess,
        unit: 'streams',
        ratio: { value: ratio, against: '1 process' },
        goal: `within 10 % of 1 process (>= ${GOAL}x)`,
        met: ratio >= GOAL,
        id: 'scale-out',
        summary: `${ratio.toFixed(2)}x one process's (${perProcess} per process of 2, ${one} alone)${QUICK ? ', quick mode' : ''}`,
        note: `${QUICK ? `quick: one process ramped to ${MAX} at most, so the ratio shows whether two hold as much, not more; judge the goal on a full run; ` : ''}${notes.filter((n) => n.startsWith('2')).join('; ')}`,
      },
    ];
  } finally {
    for (const server of servers) server.exit();
    for (const client of clients) client.exit();
    provider.exit();
  }
}
