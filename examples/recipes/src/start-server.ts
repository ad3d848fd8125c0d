import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface StartedServer {
  /** The origin the server printed, e.g. `http://localhost:41234`. */
  url: string;
  output(): string;
  stop(): Promise<void>;
}

/** Starts `command` in this package and waits for it to print the URL it listens on. */
export function startServer(command: string, args: string[], env: Record<string, string>, timeoutMs = 90_000): Promise<StartedServer> {
  const child: ChildProcess = spawn(command, args, {
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => void stop().then(() => reject(new Error(`no URL printed in ${timeoutMs} ms:\n${output}`))), timeoutMs);
    const onData = (data: Buffer) => {
      output += data.toString();
      const url = /(https?:\/\/[^\s/]+)/.exec(output)?.[1];
      if (!url) return;
      clearTimeout(timer);
      resolve({ url: url.replace('0.0.0.0', '127.0.0.1').replace('localhost', '127.0.0.1'), output: () => output, stop });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before listening:\n${output}`));
    });
  });
}
