/** What each line of the real-path benches serves (R0 floor, R1 bare AI SDK app, R2 chatwire as shipped). */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { StreamSpec } from './concurrency-protocol.js';

export type RealLineName = 'r0' | 'r1' | 'r2' | 'r2pg';

export interface RealLine {
  /** The line's node:http server (not listening yet). */
  server: Server;
  /**
   * Turn requests for `count` streams, each in a chat of its own. A body's `__SEQ__` is replaced by the
   * client with `<its pid>-<a number of its own>` per request (message ids must be fresh across every client).
   */
  prepare(count: number): Promise<StreamSpec>;
  /** `GET /chats` of the user that holds 20 chats. */
  list: { path: string; headers: Record<string, string> };
  /** What the line reported through its error hook (must stay empty). */
  errors: unknown[];
  close(): Promise<void>;
}

/** The HS256 secret every line verifies tokens with. */
export const REAL_SECRET = 'bench-secret-that-is-at-least-32-bytes-long!!';
/** What a user asks in every turn. */
export const REAL_QUESTION = 'Tell me about the weather on the coast this week.';
/** The vendor model id the bare lines ask for (one the provider package knows, so it does not clamp or warn). */
export const VENDOR_MODEL = 'claude-sonnet-4-5';
/** Chats of the listing user (`GET /chats` answers all 20 of them, no next page). */
export const LIST_CHATS = 20;
/**
 * The user whose chats `GET /chats` lists: one of their own, so the turns (another user's chats) never add to
 * the list and every line answers the same 20 chats with no cursor, however many turns ran before.
 */
export const LIST_USER = 'bench-lister';

export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export function sendJson(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}
