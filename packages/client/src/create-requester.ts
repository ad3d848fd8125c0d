import { ChatwireClientError, errorFromResponse } from './chatwire-client-error.js';

export interface ConnectionOptions {
  /** The routes' base URL, e.g. `https://app.example/api/ai` (a trailing slash is ignored). */
  baseUrl: string;
  /** The caller's JWT, sync or async, asked for before every request; an empty value sends no header. */
  getToken: () => string | null | undefined | Promise<string | null | undefined>;
  /** A `fetch` implementation; defaults to the global `fetch` at call time. */
  fetch?: typeof fetch;
}

export interface RequestOptions {
  body?: unknown;
  /** Sent as is instead of `body` as JSON (an upload's bytes); give its `content-type` in `headers`. */
  raw?: Blob | Uint8Array;
  signal?: AbortSignal;
  headers?: Record<string, string> | Headers;
  accept?: string;
}

/** Sends one request with auth and maps every failure to `ChatwireClientError` (aborts rethrown as is). */
export type Requester = (method: string, path: string, options?: RequestOptions) => Promise<Response>;

export function createRequester({ baseUrl, getToken, fetch: fetchImpl }: ConnectionOptions): Requester {
  const base = baseUrl.replace(/\/+$/, '');
  return async (method, path, { body, raw, signal, headers: extra, accept = 'application/json' } = {}) => {
    const headers = new Headers(extra);
    headers.set('accept', accept);
    const token = await getToken();
    if (token) headers.set('authorization', `Bearer ${token}`);
    const init: RequestInit = { method, headers };
    if (raw !== undefined) init.body = raw as BodyInit;
    else if (body !== undefined) {
      headers.set('content-type', 'application/json');
      init.body = JSON.stringify(body);
    }
    if (signal) init.signal = signal;
    let response: Response;
    try {
      response = await (fetchImpl ?? globalThis.fetch)(`${base}${path}`, init);
    } catch (error) {
      if (signal?.aborted || (error as { name?: unknown })?.name === 'AbortError') throw error;
      const reason = error instanceof Error ? error.message : String(error);
      throw new ChatwireClientError('NETWORK_ERROR', `${method} ${path} failed: ${reason}`, { status: 0, cause: error });
    }
    if (!response.ok) throw await errorFromResponse(response);
    return response;
  };
}

/** Reads a JSON success body, mapping an unreadable one to `INVALID_RESPONSE`. */
export async function readJson<T>(response: Response, what: string): Promise<T> {
  try {
    return (await response.json()) as T;
  } catch (error) {
    throw new ChatwireClientError('INVALID_RESPONSE', `${what}: the response body is not JSON`, {
      status: response.status,
      cause: error,
    });
  }
}
