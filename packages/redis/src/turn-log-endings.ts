/**
 * The SSE bytes the hub adds itself when a reader cannot get the rest of a turn: the same bytes as the
 * in-process hub of `@chatwire/core` writes.
 */
const encoder = new TextEncoder();

const ending = (errorText: string): Uint8Array =>
  encoder.encode(`data: ${JSON.stringify({ type: 'error', errorText })}\n\ndata: [DONE]\n\n`);

export const TURN_TOO_LONG_ENDING: Uint8Array = ending('The stream is too long to resume.');
export const TURN_INTERRUPTED_ENDING: Uint8Array = ending('The turn was interrupted.');
export const DEFAULT_MAX_BYTES_PER_TURN = 8 * 1024 * 1024;
