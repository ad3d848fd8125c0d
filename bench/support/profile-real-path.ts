/**
 * A profiling driver for the real-path lines (not a bench): the loopback provider, one line's server child
 * and the stream client; opens n paced streams, prints memory per open stream, writes heap snapshots before
 * and while they are open (for `heap-summary.ts`) and a CPU profile of the server over a hold window:
 *   node --import tsx bench/support/profile-real-path.ts r2 300 /tmp/real
 * writes /tmp/real-r2-before.heapsnapshot, /tmp/real-r2-during.heapsnapshot, /tmp/real-r2.cpuprofile.
 */
import type { RealLineName } from './real-path-line.js';
import { startLine, startProvider, startStreamClient } from './real-path-children.js';

const [lineArg = 'r2', countArg = '300', prefix = '/tmp/real', holdArg = '5000'] = process.argv.slice(2);
const line = lineArg as RealLineName;
const count = Number(countArg);
const provider = await startProvider();
await provider.config(1_000_000, 50);
const server = await startLine(line, provider.port);
const client = startStreamClient();
// One round first, so lazily created module state is not counted.
const warm = await server.prepare(20);
await client.ask({ type: 'open', port: server.port, count: 20, spec: warm, openTimeoutMs: 20_000 }, 'opened');
await client.ask({ type: 'hold', holdMs: 1000 }, 'held');
await client.ask({ type: 'close' }, 'closed');
const spec = await server.prepare(count);
await server.idle();
const before = await server.ch.ask({ type: 'memory' }, 'memory');
await server.ch.ask({ type: 'snapshot', path: `${prefix}-${line}-before.heapsnapshot` }, 'snapshot');
const opened = await client.ask({ type: 'open', port: server.port, count, spec, openTimeoutMs: 30_000 }, 'opened');
await server.ch.ask({ type: 'profile' }, 'profile');
const cpu0 = await server.cpu();
const { stats } = await client.ask({ type: 'hold', holdMs: Number(holdArg) }, 'held');
const cpu1 = await server.cpu();
await server.ch.ask({ type: 'profile', path: `${prefix}-${line}.cpuprofile` }, 'profile');
const during = await server.ch.ask({ type: 'memory' }, 'memory');
await server.ch.ask({ type: 'snapshot', path: `${prefix}-${line}-during.heapsnapshot` }, 'snapshot');
const kb = (b: number) => (b / count / 1024).toFixed(1);
process.stdout.write(
  `${line}: ${opened.opened}/${count} open, p99 gap ${stats.p99.toFixed(0)} ms, ${((cpu1 - cpu0) / stats.deltas).toFixed(1)} us CPU per delta (profiler on), ` +
    `RSS ${kb(during.rss - before.rss)} KB, heap ${kb(during.heap - before.heap)} KB, external ${kb(during.external - before.external)} KB per open stream\n`,
);
await client.ask({ type: 'close' }, 'closed');
server.exit();
client.exit();
provider.exit();
setTimeout(() => process.exit(0), 300);
