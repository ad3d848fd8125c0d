import type { Client } from 'pg';

export interface PgListenerOptions {
  /** Opens (but does not connect) a new client for the listening connection. */
  createClient: () => Client;
  /** Connection errors of the listening connection (it reconnects by itself). */
  onError: (error: unknown) => void;
}

export interface PgListener {
  /** LISTENs on `channel` (a safe identifier) until the returned function is called. */
  listen(channel: string, listener: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

interface Channel {
  listeners: Set<{ fn: (payload: string) => void }>;
  /** Settles once LISTEN ran for this channel. */
  ready: Promise<void>;
}

const RETRY_MIN_MS = 100;
const RETRY_MAX_MS = 5_000;

/**
 * One dedicated connection per driver for LISTEN, opened on the first subscription. When it breaks it
 * reports the error, reconnects with backoff (while anyone listens) and LISTENs again on every channel;
 * payloads sent while it was down are lost (notifications are at most once).
 */
export function createPgListener(options: PgListenerOptions): PgListener {
  const channels = new Map<string, Channel>();
  let connecting: Promise<Client> | null = null;
  let current: Client | null = null;
  let closed = false;
  let attempt = 0;
  let retryTimer: ReturnType<typeof setTimeout> | null = null;

  const dispatch = (channel: string, payload: string) => {
    for (const entry of channels.get(channel)?.listeners ?? []) entry.fn(payload);
  };

  function lost(client: Client, error: unknown): void {
    if (current !== client) return; // already handled (error and end both fire)
    current = null;
    connecting = null;
    options.onError(error);
    client.end().catch(() => undefined);
    scheduleReconnect();
  }

  function scheduleReconnect(): void {
    if (closed || retryTimer || channels.size === 0) return;
    const delay = Math.min(RETRY_MAX_MS, RETRY_MIN_MS * 2 ** attempt++);
    retryTimer = setTimeout(() => {
      retryTimer = null;
      if (channels.size > 0) connection().catch(() => undefined); // failures report and reschedule inside
    }, delay);
    retryTimer.unref?.();
  }

  /**
   * Every statement on the listening connection goes through one queue: `pg` clients must not run two
   * queries at once (deprecated, and an error from pg@9 on).
   */
  let queue: Promise<unknown> = Promise.resolve();
  function send(client: Client, sql: string): Promise<void> {
    const run = queue.then(() => client.query(sql));
    queue = run.catch(() => undefined);
    return run.then(() => undefined);
  }

  function connection(): Promise<Client> {
    if (closed) return Promise.reject(new Error('The listener was closed'));
    connecting ??= (async () => {
      const client = options.createClient();
      queue = Promise.resolve();
      client.on('notification', (message) => dispatch(message.channel, message.payload ?? ''));
      client.on('error', (error) => lost(client, error));
      client.on('end', () => lost(client, new Error('The listening connection ended')));
      current = client;
      try {
        await client.connect();
        for (const channel of channels.keys()) await send(client, `LISTEN "${channel}"`);
      } catch (error) {
        if (current === client) lost(client, error);
        throw error;
      }
      if (closed) {
        await client.end().catch(() => undefined);
        throw new Error('The listener was closed');
      }
      attempt = 0;
      return client;
    })();
    return connecting;
  }

  return {
    async listen(channel, fn) {
      const entry = { fn };
      let state = channels.get(channel);
      if (!state) {
        const created: Channel = {
          listeners: new Set(),
          ready: connection().then((client) => send(client, `LISTEN "${channel}"`)),
        };
        channels.set(channel, created);
        created.ready.catch(() => {
          if (channels.get(channel) === created && created.listeners.size === 0) channels.delete(channel);
        });
        state = created;
      }
      const joined = state;
      joined.listeners.add(entry);
      try {
        await joined.ready;
      } catch (error) {
        joined.listeners.delete(entry);
        if (channels.get(channel) === joined && joined.listeners.size === 0) channels.delete(channel);
        throw error;
      }
      let done = false;
      return async () => {
        if (done) return;
        done = true;
        joined.listeners.delete(entry);
        if (joined.listeners.size > 0 || channels.get(channel) !== joined) return;
        channels.delete(channel);
        // Queued after any LISTEN of a later subscriber? No: that one created a new entry and its LISTEN
        // is queued on the same connection after this UNLISTEN, so the channel ends up listened.
        if (current) await send(current, `UNLISTEN "${channel}"`).catch(() => undefined);
      };
    },
    async close() {
      closed = true;
      if (retryTimer) clearTimeout(retryTimer);
      retryTimer = null;
      channels.clear();
      const client = current;
      current = null;
      connecting = null;
      await client?.end().catch(() => undefined);
    },
  };
}
