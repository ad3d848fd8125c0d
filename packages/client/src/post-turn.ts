import { ChatwireClientError } from './chatwire-client-error.js';
import type { Requester } from './create-requester.js';

/** What a turn does: a new message (default), a rewrite of a stored user message, or a new answer to one. */
export type TurnTrigger = 'submit' | 'edit' | 'regenerate' | 'approval';

/** One answer to a tool call waiting for approval. */
export interface ApprovalAnswer {
  toolCallId: string;
  approved: boolean;
  reason?: string;
}

/**
 * The body of `POST /chat`, exactly. `submit` and `edit` carry `userMessageId` and `content`; `regenerate`
 * carries no `content` and an optional `userMessageId` (the server's default: the chat's last user message).
 * `trigger` is left out of the body for `submit` (the server's default).
 */
export interface TurnRequest {
  chatId: string;
  trigger?: TurnTrigger;
  userMessageId?: string;
  content?: string;
  modelId?: string;
  /** `trigger: 'approval'`: one answer for every call the chat's last turn waits on. */
  approvals?: ApprovalAnswer[];
  /** `submit`: ids of `POST /attachments`, in order (`content` may then be empty). */
  attachments?: string[];
}

export interface OpenTurn {
  /** From the `X-Asst-Id` header: the id the assistant row will be stored under. */
  assistantMessageId: string;
  body: ReadableStream<Uint8Array>;
}

/**
 * `POST /chat` up to the response headers. Throws `ChatwireClientError` for error responses (409
 * `DUPLICATE_MESSAGE` / `CHAT_BUSY`, 400 `MODEL_NOT_ALLOWED`, 404 `MESSAGE_NOT_FOUND`...) and
 * `INVALID_RESPONSE` when the stream has no body or no readable `X-Asst-Id` (cross-origin: the server must
 * list it in `Access-Control-Expose-Headers`).
 */
export async function postTurn(
  request: Requester,
  turn: TurnRequest,
  options: { signal?: AbortSignal; headers?: Record<string, string> | Headers } = {},
): Promise<OpenTurn> {
  const body: TurnRequest = { chatId: turn.chatId };
  if (turn.trigger !== undefined && turn.trigger !== 'submit') body.trigger = turn.trigger;
  if (turn.userMessageId !== undefined) body.userMessageId = turn.userMessageId;
  if (turn.content !== undefined) body.content = turn.content;
  if (turn.modelId !== undefined) body.modelId = turn.modelId;
  if (turn.approvals !== undefined) body.approvals = turn.approvals;
  if (turn.attachments !== undefined && turn.attachments.length > 0) body.attachments = turn.attachments;
  const response = await request('POST', '/chat', { ...options, body, accept: 'text/event-stream' });
  return openStream(response, 'POST /chat');
}

/**
 * `GET /chats/:id/stream` up to the response headers: the chat's running turn from its first chunk, or
 * `null` when nothing runs (204).
 */
export async function getRunningTurn(
  request: Requester,
  chatId: string,
  options: { signal?: AbortSignal; headers?: Record<string, string> | Headers } = {},
): Promise<OpenTurn | null> {
  const response = await request('GET', `/chats/${encodeURIComponent(chatId)}/stream`, { ...options, accept: 'text/event-stream' });
  if (response.status === 204) {
    await response.body?.cancel().catch(() => undefined);
    return null;
  }
  return openStream(response, 'GET /chats/:id/stream');
}

async function openStream(response: Response, what: string): Promise<OpenTurn> {
  const assistantMessageId = response.headers.get('x-asst-id');
  if (!response.body || !assistantMessageId) {
    await response.body?.cancel().catch(() => undefined);
    const missing = response.body ? 'the X-Asst-Id header (cross-origin: expose it via CORS)' : 'a body';
    throw new ChatwireClientError('INVALID_RESPONSE', `${what}: the stream response has no ${missing}`, {
      status: response.status,
    });
  }
  return { assistantMessageId, body: response.body };
}
