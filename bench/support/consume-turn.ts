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

export async function consumeTurn(handler: FetchHandler, request: Request): Promise<TurnSample> {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const response = await handler(request);
  const reader = response.body!.getReader();
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
