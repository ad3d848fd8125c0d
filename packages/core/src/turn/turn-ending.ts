/**
 * How a turn ended. Every turn ends in exactly one of these, and every ending frees its chat.
 *
 * - `completed`: the model finished and the pair (or the rewrite of an edit or regenerate) is stored.
 * - `stopped`: someone called the stop route; the partial answer is stored with `status: "stopped"`.
 * - `aborted`: the client went away (`onDisconnect: "abort"`); nothing is stored.
 * - `failed`: a provider, timeout, storage or internal error; nothing is stored. `errorText` is what the
 *   client was sent.
 * - `lost-lease`: another turn took the chat over (this process stalled past the lease); nothing is stored.
 * - `awaiting-approval`: tool calls wait for the user's approval; the turn is stored with them pending, and
 *   `POST /chat` with `trigger: "approval"` continues it.
 */
export type TurnEnding =
  | { kind: 'completed'; finishReason: string }
  | { kind: 'stopped' }
  | { kind: 'aborted' }
  | { kind: 'failed'; errorText: string }
  | { kind: 'lost-lease' }
  | { kind: 'awaiting-approval' };

/** Why a running turn was interrupted: the reason its abort signal carries. */
export type InterruptKind = 'disconnect' | 'stop' | 'lost-lease' | 'first-byte-timeout' | 'idle-timeout' | 'ended';

/** The abort reason of a turn's signal. Anything else aborting the signal is treated as a disconnect. */
export class TurnInterrupt extends Error {
  constructor(readonly kind: InterruptKind) {
    super(`turn interrupted: ${kind}`);
    this.name = 'TurnInterrupt';
  }

  static kindOf(signal: AbortSignal): InterruptKind {
    return signal.reason instanceof TurnInterrupt ? signal.reason.kind : 'disconnect';
  }
}
