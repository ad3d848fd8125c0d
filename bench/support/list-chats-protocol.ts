/** IPC messages between `bench/list-chats.bench.ts` and its server and load-generator children. */

/** B: bare node:http JSON list; H: hand-written route on the chatwire store; C: chatwire through `toNodeListener`. */
export type ListChatsLine = 'b' | 'h' | 'c';

/** What every request of a run sends (the same for the three lines). */
export interface LoadSpec {
  port: number;
  path: string;
  headers: Record<string, string>;
}

export type ListServerCommand = { type: 'cpu' } | { type: 'exit' };

export type ListServerReply =
  /** `body`: the first answer the line gives, so the parent can check all three send the same list. */
  | { type: 'ready'; spec: LoadSpec; body: string }
  /** Process CPU (user + system) in microseconds since start. */
  | { type: 'cpu'; micros: number };

export type ListClientCommand =
  | { type: 'run'; spec: LoadSpec; connections: number; warmupMs: number; durationMs: number }
  | { type: 'exit' };

export interface LoadResult {
  /** Requests answered 200 within the timed window (after warm-up). */
  requests: number;
  /** Requests answered over the whole run, warm-up included. */
  answered: number;
  ms: number;
  /** Answers that were not 200, and connection errors. */
  errors: number;
  /** Client event-loop utilisation over the timed window (near 1: the client, not the server, was the limit). */
  clientElu: number;
  /** Body bytes of the last answer. */
  bodyBytes: number;
}

export type ListClientReply = { type: 'done'; result: LoadResult };
