/**
 * A profiling driver (not a bench): opens n paced streams against one line's server child (the same
 * children as `bench/concurrency.bench.ts`), prints memory per open stream and writes two heap snapshots
 * (before the streams open, and while they are open) for `heap-summary.ts` to compare:
 *   node --import tsx bench/support/profile-streams.ts r2 200 /tmp/heap
 */
import { fork, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { channel, type Channel } from './child-channel.js';
import type { ClientCommand, ClientReply, ServerCommand, ServerReply } from './concurrency-protocol.js';

const here = dirname(fileURLToPath(import.meta.url));
const [line = 'r2', countArg = '200', dir = '/tmp/heap'] = process.argv.slice(2);
const count = Number(countArg);

function child<C, R extends { type: string }>(file: string, args: string[]): Channel<C, R> & { kill(): void } {
  const proc: ChildProcess = fork(join(here, file), args, { execArgv: ['--expose-gc', '--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return Object.assign(channel<C, R>(proc), { kill: () => void proc.kill() });
}

const server = child<ServerCommand, ServerReply>('concurrency-server.ts', [line]);
const client = child<ClientCommand, ClientReply>('concurrency-client.ts', []);
const ready = (await server.next()) as Extract<ServerReply, { type: 'ready' }>;
const { spec } = await server.ask({ type: 'prepare', count }, 'prepared');
// One round of streams first, so lazily created module state is not counted.
await client.ask({ type: 'open', port: ready.port, count: 10, spec, openTimeoutMs: 20_000 }, 'opened');
await client.ask({ type: 'close' }, 'closed');
await server.ask({ type: 'idle' }, 'idle');
const before = await server.ask({ type: 'memory' }, 'memory');
await server.ask({ type: 'snapshot', path: `${dir}-${line}-before.heapsnapshot` }, 'snapshot');
const opened = await client.ask({ type: 'open', port: ready.port, count, spec, openTimeoutMs: 20_000 }, 'opened');
await new Promise((r) => setTimeout(r, 1500));
const during = await server.ask({ type: 'memory' }, 'memory');
await server.ask({ type: 'snapshot', path: `${dir}-${line}-during.heapsnapshot` }, 'snapshot');
const perStream = (during.heap + during.external - before.heap - before.external) / count;
process.stdout.write(`${line}: ${opened.opened}/${count} open, ${(perStream / 1024).toFixed(1)} KB per open stream (heap ${((during.heap - before.heap) / count / 1024).toFixed(1)} KB, external ${((during.external - before.external) / count / 1024).toFixed(1)} KB)\n`);
await client.ask({ type: 'close' }, 'closed');
server.kill();
client.kill();
process.exit(0);
