/**
 * The live heap of a process run with `--expose-gc`: two full GCs (the second collects what the first one's
 * finalizers released), then `process.memoryUsage().heapUsed`. Shared by the measuring children and drivers.
 */

/** `global.gc`, or an error naming the missing flag. Call it first to fail before any work is done. */
export function requireGc(): () => void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with --expose-gc');
  return gc;
}

/** Heap used after two full GCs, bytes. */
export function heapAfterGc(): number {
  const gc = requireGc();
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}
