import type { AttachedTurn, TurnBusEvent } from '../hub/turn-hub.js';
import { admitTurn, type TurnRequest } from './admit-turn.js';
import type { Turn } from './turn.js';
import type { TurnRuntime } from './turn-runtime.js';

/** How long a stop route waits for a turn running in another process to end and be stored. */
const REMOTE_STOP_WAIT_MS = 10_000;

export interface TurnManager {
  /** Admits and starts a turn; it runs on its own, its first reader is `turn.output.response`. */
  start(request: TurnRequest, signal: AbortSignal | undefined): Promise<Turn>;
  /** Stops the chat's running turn (in any process sharing the store) once its partial answer is stored. */
  stop(chatId: string): Promise<{ stopped: boolean }>;
  /** The chat's running turn, from its first byte; null when none runs. */
  attach(chatId: string, signal: AbortSignal | undefined): Promise<AttachedTurn | null>;
}

/** The running turns of one chat service, and the way stop and resume reach them. */
export function createTurnManager(rt: TurnRuntime): TurnManager {
  const running = new Map<string, Turn>();

  /** Resolves once a stop sent from another process can reach the turn. */
  async function listenForStop(turn: Turn): Promise<void> {
    if (!rt.bus) return;
    try {
      const unsubscribe = await rt.bus.subscribe(turn.chatId, (event) => {
        if (event.type === 'stop') turn.interrupt('stop');
      });
      void turn.ended.then(unsubscribe).catch((error: unknown) => turn.report(error, 'internal'));
    } catch (error) {
      // Stop still works from this process; other processes cannot reach the turn.
      turn.report(error, 'internal');
    }
  }

  async function stopElsewhere(chatId: string): Promise<{ stopped: boolean }> {
    // Nobody holds the lease: nothing streams anywhere. Only read it: taking it, even for a moment, would
    // refuse a turn sent meanwhile with CHAT_BUSY.
    if (!(await rt.store.leases.isHeld(`chat:${chatId}`))) return { stopped: false };
    if (!rt.bus) return { stopped: false };
    let settle!: (event: TurnBusEvent | null) => void;
    const ended = new Promise<TurnBusEvent | null>((resolve) => (settle = resolve));
    const unsubscribe = await rt.bus.subscribe(chatId, (event) => {
      if (event.type === 'ended') settle(event);
    });
    const timer = setTimeout(() => settle(null), REMOTE_STOP_WAIT_MS);
    try {
      await rt.bus.publish(chatId, { type: 'stop' });
      const event = await ended;
      return { stopped: event?.type === 'ended' && event.ending === 'stopped' };
    } finally {
      clearTimeout(timer);
      await unsubscribe();
    }
  }

  return {
    async start(request, signal) {
      const turn = await admitTurn(rt, request);
      running.set(turn.chatId, turn);
      if (signal?.aborted) turn.disconnected();
      else signal?.addEventListener('abort', () => turn.disconnected(), { once: true });
      await listenForStop(turn);
      void turn
        .run()
        .catch((error: unknown) => turn.report(error, 'internal'))
        .finally(() => {
          if (running.get(turn.chatId) === turn) running.delete(turn.chatId);
        });
      if (rt.titles) void turn.ended.then((ending) => rt.titles?.afterTurn(turn, ending)).catch((error: unknown) => turn.report(error, 'internal'));
      return turn;
    },

    async stop(chatId) {
      const local = running.get(chatId);
      if (!local) return stopElsewhere(chatId);
      local.interrupt('stop');
      return { stopped: (await local.ended).kind === 'stopped' };
    },

    attach: (chatId, signal) => rt.hub.attach(chatId, signal ? { signal } : {}),
  };
}
