/**
 * Server child of the real-path benches (`node --expose-gc --import tsx`, argv: line r0|r1|r2|r2pg, the
 * loopback provider's port, and for r2pg a table/key prefix). Serves the line on 127.0.0.1 (port 0) and
 * answers the parent over IPC (`real-path-protocol.ts`): request specs, memory after a full GC, process CPU,
 * open responses, heap snapshots and CPU profiles.
 */
import { writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { Session } from 'node:inspector/promises';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { writeHeapSnapshot } from 'node:v8';
import type { RealLine, RealLineName } from './real-path-line.js';
import type { RealServerCommand, RealServerReply } from './real-path-protocol.js';
import { createR0Line } from './real-path-r0.js';
import { createR1Line } from './real-path-r1.js';
import { createR2Line } from './real-path-r2.js';

const [lineArg, portArg, prefix = `bench_${process.pid}`] = process.argv.slice(2);
const line = lineArg as RealLineName;
const providerPort = Number(portArg);
const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

// CHATWIRE_BENCH_GLOBAL_FETCH=1: replace the global fetch by a wrapper, so chatwire's provider calls go through
// the global fetch again (its default node:http fetch steps aside once `globalThis.fetch` was replaced).
if (process.env.CHATWIRE_BENCH_GLOBAL_FETCH === '1') {
  const original = globalThis.fetch;
  globalThis.fetch = (input, init) => original(input, init);
}

const real: RealLine =
  line === 'r0'
    ? createR0Line(providerPort)
    : line === 'r1'
      ? await createR1Line(providerPort)
      : await createR2Line(
          providerPort,
          line === 'r2pg'
            ? { databaseUrl: process.env.CHATWIRE_TEST_DATABASE_URL ?? '', redisUrl: process.env.CHATWIRE_TEST_REDIS_URL ?? '', prefix }
            : undefined,
        );

let open = 0;
real.server.on('request', (_req, res) => {
  open++;
  res.once('close', () => open--);
});
real.server.keepAliveTimeout = 60_000;
real.server.listen(0, '127.0.0.1', () => send({ type: 'ready', port: (real.server.address() as AddressInfo).port, list: real.list }));

function send(reply: RealServerReply): void {
  process.send!(reply);
}

let gcMax = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) gcMax = Math.max(gcMax, entry.duration);
}).observe({ entryTypes: ['gc'] });
const loopDelay = monitorEventLoopDelay({ resolution: 5 });
loopDelay.enable();
let session: Session | null = null;

function memory(): Extract<RealServerReply, { type: 'memory' }> {
  const diagnostics = { gcMaxMs: gcMax, loopP99Ms: loopDelay.percentile(99) / 1e6, loopMaxMs: loopDelay.max / 1e6 };
  gc();
  gc();
  const m = process.memoryUsage();
  gcMax = 0;
  loopDelay.reset();
  return { type: 'memory', heap: m.heapUsed, external: m.external + m.arrayBuffers, rss: m.rss, open, ...diagnostics };
}

process.on('message', (command: RealServerCommand) => {
  void (async () => {
    switch (command.type) {
      case 'prepare':
        return send({ type: 'prepared', spec: await real.prepare(command.count) });
      case 'memory':
        return send(memory());
      case 'cpu': {
        const cpu = process.cpuUsage();
        return send({ type: 'cpu', micros: cpu.user + cpu.system });
      }
      case 'mark':
        gcMax = 0;
        loopDelay.reset();
        return send({ type: 'marked' });
      case 'idle': {
        const deadline = Date.now() + 30_000;
        while (open > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
        const first = real.errors[0];
        return send({ type: 'idle', open, errors: real.errors.length, ...(first === undefined ? {} : { firstError: String(first) }) });
      }
      case 'snapshot':
        gc();
        return send({ type: 'snapshot', path: writeHeapSnapshot(command.path) });
      case 'profile': {
        if (command.path === undefined) {
          session = new Session();
          session.connect();
          await session.post('Profiler.enable');
          await session.post('Profiler.setSamplingInterval', { interval: 200 });
          await session.post('Profiler.start');
          return send({ type: 'profile' });
        }
        const { profile } = await session!.post('Profiler.stop');
        writeFileSync(command.path, JSON.stringify(profile));
        session!.disconnect();
        session = null;
        return send({ type: 'profile', path: command.path });
      }
      case 'exit':
        real.server.closeAllConnections();
        real.server.close();
        await real.close().catch(() => undefined);
        process.exit(0);
    }
  })();
});

// The bench that started this child is gone: so is the child.
process.on('disconnect', () => process.exit(0));
