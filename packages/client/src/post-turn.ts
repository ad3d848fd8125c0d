import { ChatwireClientError } from './chatwire-client-error.js';
import type { Requester } from './create-requester.js';

/** The body of `POST /chat`, exactly. */
export interface TurnRequest {
  chatId: string;
  userMessageId: string;
  content: string;
  modelId?: string;
}

export interface OpenTurn {
  /** From the `X-Asst-Id` header: the id the assistant row will be stored under. */
  assistantMessageId: string;
  body: ReadableStream<Uint8Array>;
}

/**
 * `POST /chat` up to the response headers. Throws `ChatwireClientError` for error responses (409
 * `DUPLICATE_MESSAGE` / `CHAT_BUSY`, 400 `MODEL_NOT_ALLOWED`...) and `INVALID_RESPONSE` when the stream has
 * no body or no readable `X-Asst-Id` (cross-origin: the server must list it in
 * `Access-Control-Expose-Headers`).
 */
export async function postTurn(
  request: Requester,
  turn: TurnRequest,
  options: { signal?: AbortSignal; headers?: Record<string, string> | Headers } = {},
): Promise<OpenTurn> {
  const body: TurnRequest = { chatId: turn.chatId, userMessageId: turn.userMessageId, content: turn.content };
  if (turn.modelId !== undefined) body.modelId = turn.modelId;
  const response = await request('POST', '/chat', { ...options, body, accept: 'text/event-stream' });
  const assistantMessageId = response.headers.get('x-asst-id');
  if (!response.body || !assistantMessageId) {
    await response.body?.cancel().catch(() => undefined);
    const missing = response.body ? 'the X-Asst-Id header (cross-origin: expose it via CORS)' : 'a body';
    throw new ChatwireClientError('INVALID_RESPONSE', `POST /chat: the stream response has no ${missing}`, {
      status: response.status,
    });
  }
  return { assistantMessageId, body: response.body };
}
