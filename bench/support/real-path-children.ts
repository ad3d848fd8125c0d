/** Starting the children of the real-path benches: the loopback provider, line servers and clients. */
import { fork, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ProviderCommand, ProviderReply } from './anthropic-sse-server.js';
import { channel, type Channel } from './child-channel.js';
import { exampleSourceHooks, exampleStartFlags } from './example-start-flags.js';
import type { ClientCommand, ClientReply, StreamSpec } from './concurrency-protocol.js';
import type { RealLineName } from './real-path-line.js';
import type { RealServerCommand, RealServerReply, TurnClientCommand, TurnClientReply } from './real-path-protocol.js';

const here = dirname(fileURLToPath(import.meta.url));

/** A child running `file`; `node` its Node flags (default: TypeScript through tsx). */
export function spawnChild(file: string, args: string[] = [], gc = false, node: string[] = ['--import', 'tsx']): ChildProcess {
  return fork(join(here, file), args, {
    execArgv: [...(gc ? ['--expose-gc'] : []), ...node],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
}

export interface Provider {
  port: number;
  ch: Channel<ProviderCommand, ProviderReply>;
  /** Answers from now on have `deltas` text deltas, one every `paceMs`. */
  config(deltas: number, paceMs: number): Promise<void>;
  exit(): void;
}

export async function startProvider(): Promise<Provider> {
  const child = spawnChild('anthropic-sse-server.ts');
  const ch = channel<ProviderCommand, ProviderReply>(child);
  const ready = await ch.next();
  if (ready.type !== 'ready') throw new Error('provider did not start');
  return {
    port: ready.port,
    ch,
    config: async (deltas, paceMs) => void (await ch.ask({ type: 'config', deltas, paceMs }, 'configured')),
    exit: () => ch.send({ type: 'exit' }),
  };
}

export interface LineServer {
  line: RealLineName;
  port: number;
  list: { path: string; headers: Record<string, string> };
  ch: Channel<RealServerCommand, RealServerReply>;
  cpu(): Promise<number>;
  prepare(count: number): Promise<StreamSpec>;
  /** Waits until no response is open; throws if the line reported errors. */
  idle(): Promise<void>;
  exit(): void;
}

export async function startLine(line: RealLineName, providerPort: number, prefix?: string): Promise<LineServer> {
  // Line servers run as `pnpm start` runs the example: R2 with all of its start script's Node flags, the others
  // with its module hooks only (the same compiled TypeScript for every line).
  const node = line.startsWith('r2') ? exampleStartFlags() : exampleSourceHooks();
  const child = spawnChild('real-path-server.ts', [line, String(providerPort), ...(prefix ? [prefix] : [])], true, node);
  const ch = channel<RealServerCommand, RealServerReply>(child);
  const ready = await ch.next();
  if (ready.type !== 'ready') throw new Error(`${line} did not start`);
  return {
    line,
    port: ready.port,
    list: ready.list,
    ch,
    cpu: async () => (await ch.ask({ type: 'cpu' }, 'cpu')).micros,
    prepare: async (count) => (await ch.ask({ type: 'prepare', count }, 'prepared')).spec,
    async idle() {
      const idle = await ch.ask({ type: 'idle' }, 'idle');
      if (idle.open > 0) throw new Error(`${line}: ${idle.open} responses still open`);
    },
    exit: () => ch.send({ type: 'exit' }),
  };
}

export function startTurnClient(): Channel<TurnClientCommand, TurnClientReply> & { exit(): void } {
  const ch = channel<TurnClientCommand, TurnClientReply>(spawnChild('real-path-client.ts'));
  return Object.assign(ch, { exit: () => ch.send({ type: 'exit' }) });
}

export function startStreamClient(): Channel<ClientCommand, ClientReply> & { exit(): void } {
  const ch = channel<ClientCommand, ClientReply>(spawnChild('concurrency-client.ts'));
  return Object.assign(ch, { exit: () => ch.send({ type: 'exit' }) });
}
