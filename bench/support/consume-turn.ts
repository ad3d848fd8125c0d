/** Runs one turn through a fetch handler in-process and reads the whole body, timing it. */
import type { FetchHandler } from './routes.js';

export interface TurnSample {
  /** handler called -> first body bytes. */
  firstByteMs: number;
  /** handler called -> first bytes holding a `text-delta` chunk. */
  firstTokenMs: number;
  /** user + system CPU of the whole turn, microseconds (process.cpuUsage: every thread of the process). */
  cpuUs: number;
  bytes: number;
  status: number;
  assistantMessageId: string | null;
}

const TEXT_DELTA = Buffer.from('"text-delta"');
/** A turn still open after this long is a hang: the bench fails naming it instead of waiting forever. */
const TURN_LIMIT_MS = 60_000;

export async function consumeTurn(handler: FetchHandler, request: Request): Promise<TurnSample> {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const response = await handler(request);
  const reader = response.body!.getReader();
  let stalled = false;
  const limit = setTimeout(() => {
    stalled = true;
    void reader.cancel().catch(() => undefined);
  }, TURN_LIMIT_MS);
  let firstByteMs = -1;
  let firstTokenMs = -1;
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (firstByteMs < 0) firstByteMs = performance.now() - t0;
    if (firstTokenMs < 0 && Buffer.from(value.buffer, value.byteOffset, value.byteLength).includes(TEXT_DELTA)) {
      firstTokenMs = performance.now() - t0;
    }
    bytes += value.byteLength;
  }
  clearTimeout(limit);
  if (stalled) throw new Error(`the turn's stream was still open after ${TURN_LIMIT_MS / 1000} s (${bytes} bytes read, status ${response.status})`);
  const cpu = process.cpuUsage(cpu0);
  return {
    firstByteMs,
    firstTokenMs,
    cpuUs: cpu.user + cpu.system,
    bytes,
    status: response.status,
    assistantMessageId: response.headers.get('x-asst-id'),
  };
}
