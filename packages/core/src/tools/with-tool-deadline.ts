import { ChatwireError } from '@chatwire/storage';

/** How long one tool call may run by default before it fails (and the model is told so). */
export const DEFAULT_TOOL_TIMEOUT_MS = 60_000;

/**
 * Runs one tool call under a deadline: `run` gets a signal that aborts when the turn aborts or `timeoutMs`
 * passes (0: no deadline), and the call fails with `TIMEOUT` at the deadline even if the tool ignores its
 * signal, so a hung tool never holds its turn (and its chat) for ever. One timer per call, cleared when it ends.
 */
export async function withToolDeadline<T>(toolName: string, timeoutMs: number, turnSignal: AbortSignal, run: (signal: AbortSignal) => Promise<T>): Promise<T> {
  if (timeoutMs <= 0) return run(turnSignal);
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const onTurnAbort = () => controller.abort(turnSignal.reason);
  turnSignal.addEventListener('abort', onTurnAbort, { once: true });
  const deadline = new Promise<never>((_, reject) => {
    // The turn's own abort fails the call as an abort (nothing to report); the deadline as TIMEOUT.
    const fail = () => reject(turnSignal.aborted ? new DOMException('The turn was aborted', 'AbortError') : controller.signal.reason);
    controller.signal.addEventListener('abort', fail, { once: true });
    timer = setTimeout(() => {
      controller.abort(new ChatwireError('TIMEOUT', `${toolName}: did not finish within ${timeoutMs} ms`));
    }, timeoutMs);
    timer.unref?.();
  });
  try {
    return await Promise.race([run(controller.signal), deadline]);
  } finally {
    clearTimeout(timer);
    turnSignal.removeEventListener('abort', onTurnAbort);
  }
}
