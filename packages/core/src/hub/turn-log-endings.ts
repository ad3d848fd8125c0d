/** The SSE bytes a turn hub adds itself when a reader cannot get the rest of a turn. */
const encoder = new TextEncoder();

const ending = (errorText: string): Uint8Array =>
  encoder.encode(`data: ${JSON.stringify({ type: 'error', errorText })}\n\ndata: [DONE]\n\n`);

/** What a reader gets where the turn's log reached the hub's per-turn byte cap. */
export const TURN_TOO_LONG_ENDING: Uint8Array = ending('The stream is too long to resume.');

/** What a reader gets after the last stored byte of a turn whose producer died before ending it. */
export const TURN_INTERRUPTED_ENDING: Uint8Array = ending('The turn was interrupted.');

/** Default per-turn byte cap of every turn hub: 8 MiB. */
export const DEFAULT_MAX_BYTES_PER_TURN = 8 * 1024 * 1024;
