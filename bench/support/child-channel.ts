/** Request/reply over a bench child process's IPC channel (the server and client children of the benches). */
import type { ChildProcess } from 'node:child_process';

export interface Channel<C, R extends { type: string }> {
  /** The child's next reply, in order (rejects if the child exits first). */
  next(): Promise<R>;
  /** Sends `command` and returns the next reply, which must be of `type`. */
  ask<T extends R['type']>(command: C, type: T): Promise<Extract<R, { type: T }>>;
  /** Sends `command` without waiting (no-op once the child is gone). */
  send(command: C): void;
}

/** A child answering one reply per command, in order. */
export function channel<C, R extends { type: string }>(child: ChildProcess): Channel<C, R> {
  const queue: R[] = [];
  const waiting: Array<(reply: R) => void> = [];
  child.on('message', (reply: R) => (waiting.length > 0 ? waiting.shift()!(reply) : queue.push(reply)));
  const exited = new Promise<never>((_, reject) => child.once('exit', (code) => reject(new Error(`child exited with ${code}`))));
  exited.catch(() => undefined);
  const next = () =>
    queue.length > 0 ? Promise.resolve(queue.shift()!) : Promise.race([new Promise<R>((resolve) => waiting.push(resolve)), exited]);
  return {
    next,
    async ask<T extends R['type']>(command: C, type: T): Promise<Extract<R, { type: T }>> {
      child.send(command as object);
      const reply = await next();
      if (reply.type !== type) throw new Error(`expected ${type}, got ${reply.type}`);
      return reply as Extract<R, { type: T }>;
    },
    send: (command: C) => void (child.connected && child.send(command as object)),
  };
}
