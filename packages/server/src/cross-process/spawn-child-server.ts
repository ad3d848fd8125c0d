import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '../../../..');

export interface ChildServer {
  pid: number;
  port: number;
  /** `http://127.0.0.1:<port>/api/ai` */
  base: string;
  /** Every stderr line so far (the handler's `onError` lines among them). */
  stderr: string[];
  /** Set once the process exited: its code, or the signal that ended it. */
  readonly exit: { code: number | null; signal: NodeJS.Signals | null } | null;
  exited: Promise<void>;
  signal(signal: NodeJS.Signals): void;
  /** SIGKILL by PID (no-op once it exited), then waits for the exit. */
  kill(): Promise<void>;
}

/** Starts `child-server.ts` with `env` (see there) and resolves once it printed its port. */
export function spawnChildServer(env: Record<string, string>, options: { startTimeoutMs?: number } = {}): Promise<ChildServer> {
  const child: ChildProcess = spawn(process.execPath, ['--conditions=@chatwire/source', '--import', 'tsx', join(here, 'child-server.ts')], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stderr: string[] = [];
  let exit: ChildServer['exit'] = null;
  const exited = new Promise<void>((done) =>
    child.once('exit', (code, signal) => {
      exit = { code, signal };
      done();
    }),
  );
  let pending = '';
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (text: string) => {
    pending += text;
    const lines = pending.split('\n');
    pending = lines.pop()!;
    stderr.push(...lines);
  });
  return new Promise<ChildServer>((resolvePort, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`child server did not start within ${options.startTimeoutMs ?? 20_000} ms: ${stderr.join('\n')}`));
    }, options.startTimeoutMs ?? 20_000);
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`child server exited before listening (${JSON.stringify(exit)}): ${stderr.join('\n')}${pending}`));
    });
    let out = '';
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (text: string) => {
      out += text;
      const line = /^\{"port":\d+.*\}$/m.exec(out);
      if (!line) return;
      clearTimeout(timer);
      const { port } = JSON.parse(line[0]) as { port: number };
      resolvePort({
        pid: child.pid!,
        port,
        base: `http://127.0.0.1:${port}/api/ai`,
        stderr,
        get exit() {
          return exit;
        },
        exited,
        signal: (signal) => {
          if (!exit) process.kill(child.pid!, signal);
        },
        async kill() {
          if (!exit) process.kill(child.pid!, 'SIGKILL');
          await exited;
        },
      });
    });
  });
}
