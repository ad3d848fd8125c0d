import type { AttachedTurn, TurnHub, TurnLogWriter } from './turn-hub.js';

export interface LayeredTurnHubOptions {
  /** This process's hub (normally `createMemoryTurnHub()`): always written, asked first. */
  local: TurnHub;
  /** The hub every process shares (for example the Redis one): written too, asked when `local` has nothing. */
  shared: TurnHub;
  /** Receives a failed `attach` or `open` of the shared hub (the reader then gets what `local` has). */
  onError?: (error: unknown) => void;
}

/**
 * Two hubs as one: every turn is written to both; a reader gets this process's own log when the turn
 * runs here (complete even if the shared store lost bytes, and no network round trip), otherwise the
 * shared one. When the shared hub fails, readers fall back to the local hub: a turn running on another
 * process is then not found (`null`), and the error goes to `onError`.
 */
export function createLayeredTurnHub(options: LayeredTurnHubOptions): TurnHub {
  const { local, shared } = options;
  const report = (error: unknown): void => {
    try {
      options.onError?.(error);
    } catch {
      // a failing error reporter must not break the hub
    }
  };

  return {
    open(chatId, turnId): TurnLogWriter {
      const writers: TurnLogWriter[] = [local.open(chatId, turnId)];
      try {
        writers.push(shared.open(chatId, turnId));
      } catch (error) {
        report(error);
      }
      return {
        append(bytes) {
          for (const writer of writers) writer.append(bytes);
        },
        async end() {
          const results = await Promise.allSettled(writers.map((writer) => writer.end()));
          for (const result of results) if (result.status === 'rejected') report(result.reason);
        },
      };
    },

    async attach(chatId, attachOptions): Promise<AttachedTurn | null> {
      const own = await local.attach(chatId, attachOptions);
      if (own) return own;
      try {
        return await shared.attach(chatId, attachOptions);
      } catch (error) {
        if (attachOptions?.signal?.aborted) throw error;
        report(error);
        return null;
      }
    },

    async close() {
      await Promise.allSettled([local.close(), shared.close()]);
    },
  };
}
