import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { EchoServerCommand, EchoServerReply } from './echo-mcp-server-process.js';

export interface EchoMcpServerProcess {
  /** The Streamable HTTP endpoint. */
  url: string;
  pid: number;
  /** The times measured in the child since the last call (echo handler; whole requests), in ms. */
  times(): Promise<{ handler: number[]; served: number[] }>;
  down(): Promise<void>;
}

const entry = fileURLToPath(new URL('./echo-mcp-server-process.ts', import.meta.url));

/** Starts `echo-mcp-server-process.ts` in a child process (`json`: JSON answers instead of SSE). */
export async function forkEchoMcpServer(options: { json?: boolean } = {}): Promise<EchoMcpServerProcess> {
  const child = fork(entry, options.json === true ? ['json'] : [], {
    execArgv: ['--conditions=@chatwire/source', '--import', 'tsx'],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const next = (type: EchoServerReply['type']) =>
    new Promise<EchoServerReply>((resolve, reject) => {
      const onMessage = (message: EchoServerReply) => {
        if (message.type !== type) return;
        child.off('message', onMessage);
        resolve(message);
      };
      child.on('message', onMessage);
      void exited.then(() => reject(new Error('the echo MCP server process exited')));
    });
  const send = (command: EchoServerCommand) => child.send(command);
  const listening = (await next('listening')) as Extract<EchoServerReply, { type: 'listening' }>;
  return {
    url: listening.url,
    pid: child.pid!,
    async times() {
      const answer = next('times');
      send({ type: 'times' });
      const { handler, served } = (await answer) as Extract<EchoServerReply, { type: 'times' }>;
      return { handler, served };
    },
    async down() {
      if (child.exitCode === null && child.signalCode === null) send({ type: 'down' });
      await exited;
    },
  };
}
