/**
 * `GET /chats` throughput over 50 keep-alive connections (issue #18): requests/s of
 * - B: a bare node:http server answering the same JSON list from an in-memory array (no auth),
 * - H: a hand-written node:http route on the chatwire memory store (HS256 by hand, `asCaller().query`),
 * - C: chatwire, `toNodeListener(createChatHandler(...))`, memory store, HS256 JWT,
 * for one user holding 20 chats among 1,000 (the answer is the same 20-chat list, same size, on all three).
 * Each server runs alone in its own child process; the load comes from another child (a minimal keep-alive
 * HTTP/1.1 client over node:net, see `support/list-chats-client.ts`). Lines are interleaved, the order
 * rotating each round, and the best round of each line counts (the machine is shared). Server CPU per
 * request (process.cpuUsage around each run) is printed too: it does not depend on the client.
 * Then the PostgreSQL listing row (`support/list-chats-postgres.ts`).
 * `--quick`: one round of 1 s after 0.25 s of warm-up, the servers started at once (about 8 s with the smaller
 * PostgreSQL data). Set LIST_CHATS_CPU_PROF=<dir>
 * to write a `--cpu-prof` profile of each server child there.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchRow } from './bench-row.js';
import type {
  ListChatsLine,
  ListClientCommand,
  ListClientReply,
  ListServerCommand,
  ListServerReply,
  LoadResult,
  LoadSpec,
} from './support/list-chats-protocol.js';
import { listChatsPostgresRows } from './support/list-chats-postgres.js';
import { channel, type Channel } from './support/child-channel.js';

const here = dirname(fileURLToPath(import.meta.url));
const quick = process.argv.includes('--quick');
const CONNECTIONS = 50;
const ROUNDS = quick ? 1 : 5;
const WARMUP_MS = quick ? 250 : 1000;
const DURATION_MS = quick ? 1000 : 3000;
const GOAL = 0.7;
const LINES: ListChatsLine[] = ['b', 'h', 'c'];
const LABEL: Record<ListChatsLine, string> = {
  b: 'B bare node:http JSON list',
  h: 'H hand-written route (store query + HS256)',
  c: 'C chatwire (node adapter)',
};

function spawn(file: string, args: string[], profile: boolean): ChildProcess {
  const dir = process.env.LIST_CHATS_CPU_PROF;
  return fork(join(here, 'support', file), args, {
    execArgv: ['--import', 'tsx', ...(profile && dir ? ['--cpu-prof', `--cpu-prof-dir=${dir}`] : [])],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
}

interface Run extends LoadResult {
  rps: number;
  /** Server CPU per answered request (warm-up included in both), microseconds. */
  cpuMicros: number;
}

const best = (runs: Run[]) => runs.reduce((a, b) => (b.rps > a.rps ? b : a));
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export default async function listChatsBench(): Promise<BenchRow[]> {
  const loadBefore = loadavg()[0]!;
  const clientChild = spawn('list-chats-client.ts', [], false);
  const client = channel<ListClientCommand, ListClientReply>(clientChild);
  const servers = new Map<ListChatsLine, { child: ChildProcess; ch: Channel<ListServerCommand, ListServerReply>; spec: LoadSpec; body: string }>();
  const runs: Record<ListChatsLine, Run[]> = { b: [], h: [], c: [] };
  try {
    // Started one after another: seeding and tsx start-up would otherwise compete for the 2 cores (quick: at
    // once; nothing is measured until all three are up).
    const start = async (line: ListChatsLine) => {
      const child = spawn('list-chats-server.ts', [line], true);
      const ch = channel<ListServerCommand, ListServerReply>(child);
      const ready = await ch.next();
      if (ready.type !== 'ready') throw new Error(`server ${line} did not start`);
      return { child, ch, spec: ready.spec, body: ready.body };
    };
    if (quick) (await Promise.all(LINES.map(start))).forEach((server, i) => servers.set(LINES[i]!, server));
    else for (const line of LINES) servers.set(line, await start(line));
    const sizes = LINES.map((line) => Buffer.byteLength(servers.get(line)!.body));
    if (new Set(sizes).size !== 1) throw new Error(`the lines answer different sizes: ${sizes.join(', ')} bytes`);

    for (let round = 0; round < ROUNDS; round++) {
      for (let i = 0; i < LINES.length; i++) {
        const line = LINES[(round + i) % LINES.length]!;
        const server = servers.get(line)!;
        const before = await server.ch.ask({ type: 'cpu' }, 'cpu');
        const { result } = await client.ask(
          { type: 'run', spec: server.spec, connections: CONNECTIONS, warmupMs: WARMUP_MS, durationMs: DURATION_MS },
          'done',
        );
        const after = await server.ch.ask({ type: 'cpu' }, 'cpu');
        runs[line].push({ ...result, rps: result.requests / (result.ms / 1000), cpuMicros: (after.micros - before.micros) / result.answered });
      }
    }
  } finally {
    for (const { ch } of servers.values()) ch.send({ type: 'exit' });
    client.send({ type: 'exit' });
  }

  const top = { b: best(runs.b), h: best(runs.h), c: best(runs.c) };
  const cpu = { b: median(runs.b.map((r) => r.cpuMicros)), h: median(runs.h.map((r) => r.cpuMicros)), c: median(runs.c.map((r) => r.cpuMicros)) };
  const describe = (line: ListChatsLine) =>
    `rounds ${runs[line].map((r) => r.rps.toFixed(0)).join('/')} req/s; server ${cpu[line].toFixed(0)} µs CPU/request (median); ` +
    `client ELU ${top[line].clientElu.toFixed(2)}; errors ${runs[line].reduce((n, r) => n + r.errors, 0)}`;
  const group = 'list-chats';
  const body = Buffer.byteLength(servers.get('b')!.body);
  const ratio = top.c.rps / top.b.rps;
  const rows: BenchRow[] = [
    {
      group,
      name: `${LABEL.b}: GET /chats, ${CONNECTIONS} keep-alive connections`,
      value: top.b.rps,
      unit: 'req/s',
      note: `${body}-byte answer (20 chats); best of ${ROUNDS} x ${DURATION_MS / 1000} s, interleaved; load average ${loadBefore.toFixed(1)} before, ${loadavg()[0]!.toFixed(1)} after; ${describe('b')}`,
    },
    { group, name: LABEL.h, value: top.h.rps, unit: 'req/s', ratio: { value: top.h.rps / top.b.rps, against: 'B' }, note: describe('h') },
    {
      id: 'list-chats-rps',
      summary: `${ratio.toFixed(2)}x B (C ${top.c.rps.toFixed(0)} req/s, B ${top.b.rps.toFixed(0)}, hand-written route ${top.h.rps.toFixed(0)}; server CPU per request C/B ${(cpu.c / cpu.b).toFixed(2)}x)`,
      group,
      name: LABEL.c,
      value: top.c.rps,
      unit: 'req/s',
      ratio: { value: ratio, against: 'B' },
      goal: `>= ${GOAL}x B`,
      met: ratio >= GOAL,
      // On a busy machine B cannot use the CPU it could, which flatters C/B; the CPU ratio does not move.
      note: `${describe('c')}; B/C server CPU per request ${(cpu.b / cpu.c).toFixed(2)}x (the req/s ratio when the server is the only limit)`,
    },
    { group, name: 'C chatwire against the hand-written route', value: top.c.rps, unit: 'req/s', ratio: { value: top.c.rps / top.h.rps, against: 'H' } },
    {
      group,
      name: 'C server CPU per request',
      value: cpu.c,
      unit: 'µs',
      ratio: { value: cpu.c / cpu.b, against: 'B' },
      note: `B ${cpu.b.toFixed(0)} µs, H ${cpu.h.toFixed(0)} µs, C ${cpu.c.toFixed(0)} µs (median of rounds, warm-up included)`,
    },
  ];
  rows.push(...(await listChatsPostgresRows(quick)));
  return rows;
}
