import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { ChatProcessCommand, ChatProcessReply, ChatProcessTurn } from './mcp-chat-process.js';

export interface McpChatProcess {
  pid: number;
  /** One turn of `user` in a new chat of that process. */
  turn(user: string, content?: string): Promise<ChatProcessTurn>;
  stop(): Promise<void>;
}

const entry = fileURLToPath(new URL('./mcp-chat-process.ts', import.meta.url));

/** Starts `mcp-chat-process.ts` as an OS process of its own with exactly `env` (and PATH). */
export async function forkMcpChatProcess(env: Record<string, string>): Promise<McpChatProcess> {
  const child = fork(entry, [], {
    execArgv: ['--conditions=@chatwire/source', '--import', 'tsx'],
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (text: string) => void (stderr += text));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const next = () =>
    new Promise<ChatProcessReply>((resolve, reject) => {
      child.once('message', (message: ChatProcessReply) => resolve(message));
      void exited.then(() => reject(new Error(`the chat process exited: ${stderr}`)));
    });
  const ready = await next();
  if (ready.type !== 'ready') throw new Error(`the chat process did not start: ${JSON.stringify(ready)}`);
  return {
    pid: ready.pid,
    async turn(user, content = 'printer?') {
      const answer = next();
      child.send({ type: 'turn', user, content } satisfies ChatProcessCommand);
      const reply = await answer;
      if (reply.type !== 'turn') throw new Error(`the turn failed: ${JSON.stringify(reply)}`);
      return reply;
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
