/** IPC messages between `bench/concurrency.bench.ts` and its server and client children. */

/** What the client sends for n streams: one shared body, or one body per stream. */
export interface StreamSpec {
  path: string;
  headers: Record<string, string>;
  bodies: string[];
  /** What a chunk must contain to count as the first text delta (default `"text-delta"`, the UI message stream). */
  marker?: string;
}

export type ServerCommand =
  | { type: 'prepare'; count: number }
  | { type: 'mark' }
  | { type: 'memory' }
  | { type: 'idle' }
  /** Writes a heap snapshot (after a full GC) to `path` (profiling only). */
  | { type: 'snapshot'; path: string }
  | { type: 'exit' };

export type ServerReply =
  | { type: 'ready'; port: number }
  | { type: 'marked' }
  | { type: 'prepared'; spec: StreamSpec }
  | { type: 'memory'; heap: number; external: number; open: number; gcMaxMs: number; loopP99Ms: number; loopMaxMs: number }
  | { type: 'idle'; open: number; errors: number }
  | { type: 'snapshot'; path: string };

export type ClientCommand =
  | { type: 'open'; port: number; count: number; spec: StreamSpec; openTimeoutMs: number }
  | { type: 'hold'; holdMs: number }
  | { type: 'close' }
  | { type: 'exit' };

export interface GapStats {
  /** Inter-chunk gaps measured while every stream was open. */
  gaps: number;
  p50: number;
  p99: number;
  max: number;
  /** Streams that failed or ended before the client closed them. */
  failed: number;
  /** Client event-loop utilisation over the hold (near 1: the client, not the server, was the limit). */
  clientElu: number;
  /** Text deltas (marker occurrences) read while every stream was open. */
  deltas: number;
}

export type ClientReply =
  | { type: 'opened'; opened: number; ms: number; failed: number }
  | { type: 'held'; stats: GapStats }
  | { type: 'closed' };
