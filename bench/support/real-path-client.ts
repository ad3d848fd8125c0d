/**
 * Turn client of the real-path benches (a child process): `concurrency` workers, each sending one turn after
 * another (keep-alive node:http agent) until `durationMs` has passed, reading every answer to its end. Per
 * turn: how long after the provider wrote the first text delta the client read it (the provider puts
 * `process.hrtime.bigint()` in that delta's text: CLOCK_MONOTONIC, one clock for the machine's processes),
 * the time to the first text delta, and the text deltas read.
 */
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { StreamSpec } from './concurrency-protocol.js';
import type { TurnClientCommand, TurnClientReply, TurnResults } from './real-path-protocol.js';

const STAMPED = /"(?:text|delta)":"T(\d+)"/;
let sequence = 0;

function turn(agent: Agent, port: number, spec: StreamSpec, index: number, results: TurnResults): Promise<void> {
  const body = spec.bodies[index % spec.bodies.length]!.replaceAll('__SEQ__', `${process.pid}-${++sequence}`);
  const marker = Buffer.from(spec.marker ?? 'text-delta');
  const sentAt = performance.now();
  return new Promise((resolve) => {
    let deltas = 0;
    let stamped = false;
    let status = 0;
    const done = (ok: boolean) => {
      if (ok && status === 200 && stamped) {
        results.turns++;
        results.deltas += deltas;
      } else results.failed++;
      resolve();
    };
    const req = request(
      { host: '127.0.0.1', port, path: spec.path, method: 'POST', agent, headers: { ...spec.headers, 'content-length': Buffer.byteLength(body) } },
      (res) => {
        status = res.statusCode ?? 0;
        res.on('data', (chunk: Buffer) => {
          const at = chunk.indexOf(marker);
          if (at === -1) return;
          if (!stamped) {
            const now = process.hrtime.bigint();
            const match = STAMPED.exec(chunk.toString('utf8'));
            if (match) {
              stamped = true;
              results.afterProviderMs.push(Number(now - BigInt(match[1]!)) / 1e6);
              results.firstDeltaMs.push(performance.now() - sentAt);
            }
          }
          for (let i = at; i !== -1; i = chunk.indexOf(marker, i + 1)) deltas++;
        });
        res.on('end', () => done(true));
        res.on('error', () => done(false));
      },
    );
    req.on('error', () => done(false));
    req.end(body);
  });
}

async function run(port: number, spec: StreamSpec, concurrency: number, durationMs: number): Promise<TurnResults> {
  const agent = new Agent({ keepAlive: true, maxSockets: Infinity });
  const results: TurnResults = { turns: 0, deltas: 0, failed: 0, afterProviderMs: [], firstDeltaMs: [], ms: 0 };
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async (_, worker) => {
      // Spread the workers' starts over one pacing interval, as users' requests arrive.
      await new Promise((r) => setTimeout(r, (worker * 50) / concurrency));
      while (performance.now() - started < durationMs) await turn(agent, port, spec, worker, results);
    }),
  );
  results.ms = performance.now() - started;
  agent.destroy();
  return results;
}

process.on('message', (command: TurnClientCommand) => {
  if (command.type === 'exit') process.exit(0);
  void run(command.port, command.spec, command.concurrency, command.durationMs).then((results) =>
    process.send!({ type: 'turns', results } satisfies TurnClientReply),
  );
});

// The bench that started this child is gone: so is the child.
process.on('disconnect', () => process.exit(0));
