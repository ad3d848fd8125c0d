import { ChatwireClientError, decodeActions, type Action } from '@chatwire/client';

/** A turn's stream as the page reads it: the assistant row's id and its decoded actions. */
export interface TurnStream {
  assistantMessageId: string;
  actions: AsyncIterableIterator<Action>;
}

export type TurnTrigger = 'submit' | 'edit' | 'regenerate' | 'approval';

export interface ModelChoice {
  modelId: string;
  provider: string;
  available: boolean;
}

export interface TurnRoutes {
  /** `POST /chat` with a `trigger`: `edit` needs `userMessageId` and `content`; `regenerate` takes no content. */
  startTurn(input: {
    chatId: string;
    trigger: TurnTrigger;
    userMessageId?: string;
    content?: string;
    modelId?: string;
    /** `approval`: one answer for each tool call the chat's last answer waits on. */
    approvals?: Array<{ toolCallId: string; approved: boolean }>;
    signal?: AbortSignal;
  }): Promise<TurnStream>;
  /** `POST /chats/:id/stop`; `null` when the server has no stop route (older servers: abort instead). */
  stopTurn(chatId: string): Promise<{ stopped: boolean } | null>;
  /** `GET /chats/:id/stream`: the running turn from its first chunk, or `null` (204, or no such route). */
  resumeTurn(chatId: string, signal?: AbortSignal): Promise<TurnStream | null>;
  /** `GET /models`, or `null` when the server does not have that route. */
  listModels(): Promise<{ models: ModelChoice[]; defaultModelId?: string } | null>;
}

/**
 * The turn lifecycle routes (edit, regenerate, stop, resume, models) that `@chatwire/client`'s route client does
 * not offer yet, on plain fetch with the same bearer token. A route the server lacks answers 404 with the code
 * `NOT_FOUND` and a "No route" message; those calls resolve to `null` so the page can fall back.
 */
export function createTurnRoutes(options: { baseUrl: string; getToken: () => string | null }): TurnRoutes {
  const base = options.baseUrl.replace(/\/+$/, '');
  const call = (method: string, path: string, init: { body?: unknown; signal?: AbortSignal; accept?: string } = {}) => {
    const headers = new Headers({ accept: init.accept ?? 'application/json' });
    const token = options.getToken();
    if (token) headers.set('authorization', `Bearer ${token}`);
    if (init.body !== undefined) headers.set('content-type', 'application/json');
    return fetch(`${base}${path}`, {
      method,
      headers,
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
      ...(init.signal ? { signal: init.signal } : {}),
    });
  };
  const chatPath = (chatId: string) => `/chats/${encodeURIComponent(chatId)}`;

  const toStream = (response: Response, what: string): TurnStream => {
    const assistantMessageId = response.headers.get('x-asst-id');
    if (!response.body || !assistantMessageId) {
      throw new ChatwireClientError('INVALID_RESPONSE', `${what}: the stream has no body or no X-Asst-Id`, { status: response.status });
    }
    return { assistantMessageId, actions: decodeActions(response.body) };
  };

  return {
    async startTurn({ chatId, trigger, userMessageId, content, modelId, approvals, signal }) {
      const body = { chatId, trigger, userMessageId, content, modelId, approvals };
      const response = await call('POST', '/chat', { body, accept: 'text/event-stream', ...(signal ? { signal } : {}) });
      if (!response.ok) throw await errorOf(response);
      return toStream(response, 'POST /chat');
    },
    async stopTurn(chatId) {
      const response = await call('POST', `${chatPath(chatId)}/stop`);
      if (await isMissingRoute(response)) return null;
      if (!response.ok) throw await errorOf(response);
      return (await response.json()) as { stopped: boolean };
    },
    async resumeTurn(chatId, signal) {
      const response = await call('GET', `${chatPath(chatId)}/stream`, { accept: 'text/event-stream', ...(signal ? { signal } : {}) });
      if (response.status === 204 || (await isMissingRoute(response))) return null;
      if (!response.ok) throw await errorOf(response);
      return toStream(response, 'GET /chats/:id/stream');
    },
    async listModels() {
      const response = await call('GET', '/models');
      if (await isMissingRoute(response)) return null;
      if (!response.ok) throw await errorOf(response);
      return readModels(await response.json());
    },
  };
}

/** A 404 for the route itself (not for a chat): the server predates the route. Leaves other bodies unread. */
async function isMissingRoute(response: Response): Promise<boolean> {
  if (response.status !== 404 && response.status !== 405) return false;
  const text = await response.clone().text().catch(() => '');
  return /no route/i.test(text) || response.status === 405;
}

async function errorOf(response: Response): Promise<ChatwireClientError> {
  const text = await response.text().catch(() => '');
  try {
    const { error } = JSON.parse(text) as { error?: { code?: unknown; message?: unknown } };
    if (typeof error?.code === 'string' && typeof error.message === 'string') {
      return new ChatwireClientError(error.code, error.message, { status: response.status });
    }
  } catch {
    // not chatwire JSON: described by the status below
  }
  return new ChatwireClientError('HTTP_ERROR', `${response.status} ${response.statusText}`.trim(), { status: response.status });
}

/** Reads `{ models: [...] }` or a bare array; entries need a model id (`modelId` or `id`). */
function readModels(body: unknown): { models: ModelChoice[]; defaultModelId?: string } {
  const object = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const list: unknown[] = Array.isArray(body) ? body : Array.isArray(object.models) ? object.models : [];
  const models = list.flatMap((raw): ModelChoice[] => {
    const entry = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
    const modelId = typeof entry.modelId === 'string' ? entry.modelId : typeof entry.id === 'string' ? entry.id : undefined;
    if (!modelId) return [];
    return [{ modelId, provider: typeof entry.provider === 'string' ? entry.provider : '', available: entry.available !== false }];
  });
  const fallback = typeof object.defaultModelId === 'string' ? object.defaultModelId : typeof object.default === 'string' ? object.default : undefined;
  return fallback === undefined ? { models } : { models, defaultModelId: fallback };
}
