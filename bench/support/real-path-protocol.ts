/** IPC messages between the real-path benches and their children (line servers, turn client). */
import type { StreamSpec } from './concurrency-protocol.js';

export type RealServerCommand =
  | { type: 'prepare'; count: number }
  | { type: 'memory' }
  | { type: 'cpu' }
  | { type: 'mark' }
  | { type: 'idle' }
  /** Writes a heap snapshot (after a full GC) to `path` (profiling only). */
  | { type: 'snapshot'; path: string }
  /** Starts (`path` absent) or stops a CPU profile and writes it to `path` (profiling only). */
  | { type: 'profile'; path?: string }
  | { type: 'exit' };

export type RealServerReply =
  | { type: 'ready'; port: number; list: { path: string; headers: Record<string, string> } }
  | { type: 'prepared'; spec: StreamSpec }
  /** After two full GCs; the diagnostics are since the last `mark` or `memory`. */
  | { type: 'memory'; heap: number; external: number; rss: number; open: number; gcMaxMs: number; loopP99Ms: number; loopMaxMs: number }
  /** Process CPU (user + system) so far, microseconds. */
  | { type: 'cpu'; micros: number }
  | { type: 'marked' }
  | { type: 'idle'; open: number; errors: number; firstError?: string }
  | { type: 'snapshot'; path: string }
  | { type: 'profile'; path?: string };

export type TurnClientCommand =
  | { type: 'turns'; port: number; spec: StreamSpec; concurrency: number; durationMs: number }
  | { type: 'exit' };

export interface TurnResults {
  /** Whole turns read to the end with status 200. */
  turns: number;
  /** Text deltas read in those turns. */
  deltas: number;
  /** Turns that failed (status, error, no text delta). */
  failed: number;
  /** Per turn: the provider's write of the first text delta -> the client read it (same monotonic clock), ms. */
  afterProviderMs: number[];
  /** Per turn: request sent -> first text delta read, ms. */
  firstDeltaMs: number[];
  ms: number;
}

export type TurnClientReply = { type: 'turns'; results: TurnResults };
