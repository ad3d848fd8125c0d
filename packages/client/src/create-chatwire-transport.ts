import type { ChatRequestOptions, ChatTransport, UIMessage } from 'ai';
import { ChatwireClientError } from './chatwire-client-error.js';
import { createRequester, type ConnectionOptions } from './create-requester.js';
import type { DecodeOptions } from './decode-chunks.js';
import { openStoppableStream } from './open-stoppable-stream.js';
import { getRunningTurn, postTurn, type OpenTurn, type TurnRequest } from './post-turn.js';
import { DEFAULT_STOP_RETRY_DELAYS, retryTransient } from './retry-transient.js';
import { approvalAnswersOf, deniedApprovalResponsesOf } from './approval-answers.js';
import { sdkApprovalChunks, type ApprovalChunks } from './sdk-approval-chunks.js';
import { uploadFileParts } from './upload-file-parts.js';

export interface ChatwireTransportOptions extends ConnectionOptions, DecodeOptions {
  /** Default model; `sendMessage(msg, { body: { modelId } })` overrides it per request. */
  modelId?: string;
  /**
   * Called once when `stop()` could not reach the stop route: a definitive error answer (401, 404...) or the
   * last of the retried transient failures (network error, 408, 429, 5xx). The connection is closed after it,
   * which the server reads as a disconnect: with its default `onDisconnect: 'abort'` nothing of that turn is
   * stored. `error` is a `ChatwireClientError`.
   */
  onStopError?: (error: unknown, context: { chatId: string }) => void;
  /** Milliseconds to wait before each retry of a transiently failed stop request; default `[250, 1000]`. */
  stopRetryDelays?: readonly number[];
  /**
   * `'sdk'` for AI SDK 6/7 apps that answer tool approvals with `addToolApprovalResponse`: the transport adds
   * the SDK's `tool-approval-request` chunk before each `data-tool-approval` (tool part `approval-requested`,
   * `approval.id` = the tool call id) and `tool-output-denied` for a call denied that way. Default `'data'`:
   * the server's chunks only (answers with `addToolResult` / `addToolOutput`, every major). Never `'sdk'` with
   * ai@5, whose `Chat` does not know these chunks. See `ApprovalChunks`.
   */
  approvalChunks?: ApprovalChunks;
}

type SendOptions = Parameters<ChatTransport<UIMessage>['sendMessages']>[0];
type ExtraHeaders = Record<string, string> | Headers | undefined;

/**
 * An AI SDK v5 `ChatTransport` for `useChat` / `Chat` (@ai-sdk/react@2) that maps each action to one chatwire
 * request:
 * - `sendMessage({ text })` -> `POST /chat` submit of the new last user message;
 * - `sendMessage({ text, messageId })` (an edit: the SDK cut the history after that user message) -> `edit`;
 * - `regenerate()` -> `regenerate` of the last user message the SDK kept (the one before the answer); when
 *   the server never stored that message (its turn failed), a submit of it: useChat's retry after an error;
 * - `stop()` -> `POST /chats/:id/stop`, then the connection closes (so the partial answer is stored), also
 *   for a resumed stream (but a resume replaced by a newer `resumeStream()` only closes); a transiently
 *   failing stop is retried (`stopRetryDelays`) and a definitive failure goes to `onStopError` before the close;
 * - `resume: true` / `resumeStream()` -> `GET /chats/:id/stream` (`null` when nothing runs);
 * - a send whose last message is the assistant's (useChat's `sendAutomaticallyWhen` after `addToolResult` /
 *   `addToolOutput`) -> `approval` with the `{ approved, reason? }` outputs the app gave the calls the message
 *   asks about (`data-tool-approval` parts); the server continues that turn in the same assistant message;
 * - with `approvalChunks: 'sdk'` (ai@6/7), `addToolApprovalResponse` works too: the paused calls' tool parts
 *   are `approval-requested`, and a send whose last message has them all `approval-responded` -> `approval`.
 * Only the message the trigger names is sent (`content` = its text parts joined), never the history.
 * Error responses reject with a `ChatwireClientError` (an `Error` whose message is the server's, with
 * `code`/`status`), which `useChat` puts in `error`. Imports nothing from `ai` at run time (types only), and
 * its signature names only `ai`'s own types, so it fits the `Chat`/`useChat` of ai@5, ai@6 and ai@7.
 */
export function createChatwireTransport<UI_MESSAGE extends UIMessage = UIMessage>(
  options: ChatwireTransportOptions,
): ChatTransport<UI_MESSAGE> {
  const request = createRequester(options);
  const decode: DecodeOptions = options.onSkippedLine ? { onSkippedLine: options.onSkippedLine } : {};
  const stopRetryDelays = options.stopRetryDelays ?? DEFAULT_STOP_RETRY_DELAYS;
  const stopTurn = (chatId: string, headers: ExtraHeaders) =>
    retryTransient(
      () => request('POST', `/chats/${encodeURIComponent(chatId)}/stop`, withHeaders({}, headers)).then((res) => res.body?.cancel()),
      stopRetryDelays,
    ).catch((error: unknown) => {
      try {
        options.onStopError?.(error, { chatId });
      } catch {
        // A throwing callback must not keep the connection open.
      }
    });
  // A chat's stop in progress. `Chat.stop()` resolves before it is done (the SDK does not wait for the
  // cancellation to reach the transport), so the chat's next request waits for it: sent earlier, it would
  // find the stopped turn still holding the chat (409 CHAT_BUSY).
  const stopping = new Map<string, Promise<void>>();
  // The SDK aborts a chat's resume request when a newer `resumeStream()` replaces it: that abort only closes
  // the older reader (it is not `stop()`), so a resume stops the turn only while it is the chat's latest.
  const resumes = new Map<string, number>();
  const streamOf = async (
    chatId: string,
    headers: ExtraHeaders,
    abortSignal: AbortSignal | undefined,
    open: (signal: AbortSignal) => Promise<OpenTurn | null>,
    stillStops?: () => boolean,
    denied?: ReadonlySet<string>,
  ) => {
    await stopping.get(chatId);
    return openStoppableStream({
      open,
      ...(stillStops ? { stillStops } : {}),
      ...(options.approvalChunks === 'sdk' ? { mapChunk: sdkApprovalChunks(denied) } : {}),
      stop: () => stopTurn(chatId, headers),
      abortSignal,
      decode,
      onStopping: (done) => {
        stopping.set(chatId, done);
        void done.then(() => stopping.get(chatId) === done && stopping.delete(chatId));
      },
    });
  };

  return {
    async sendMessages({ trigger, chatId, messageId, messages, abortSignal, headers, body }: SendOptions) {
      const turn = turnFor(trigger, chatId, messageId, messages);
      const modelId = modelIdFrom(body) ?? options.modelId;
      if (modelId !== undefined) turn.modelId = modelId;
      // `sendMessage({ text, files })`: each file is uploaded first and the turn names it by id.
      const last = messages[messages.length - 1];
      if (turn.trigger === 'submit' && last?.role === 'user' && last.parts.some((part) => part.type === 'file')) {
        turn.attachments = await uploadFileParts(request, last.parts, abortSignal);
      }
      const post = (t: TurnRequest, signal: AbortSignal) => postTurn(request, t, withHeaders({ signal }, headers));
      const retry = unsavedRetry(turn, messages);
      const retried = retry && messages.find((m) => m.id === retry.userMessageId);
      if (retry && retried?.parts.some((part) => part.type === 'file')) retry.attachments = await uploadFileParts(request, retried.parts, abortSignal);
      const open = retry
        ? (signal: AbortSignal) => post(turn, signal).catch((error: unknown) => retryUnsaved(error, () => post(retry, signal)))
        : (signal: AbortSignal) => post(turn, signal);
      // `addToolApprovalResponse` denials: the continuation's outputs of those calls become `tool-output-denied`.
      const denied = turn.trigger === 'approval' && options.approvalChunks === 'sdk' ? deniedApprovalResponsesOf(last!) : undefined;
      return (await streamOf(chatId, headers, abortSignal, open, undefined, denied))!;
    },
    async reconnectToStream({ chatId, abortSignal, headers }) {
      const generation = (resumes.get(chatId) ?? 0) + 1;
      resumes.set(chatId, generation);
      const open = (signal: AbortSignal) => getRunningTurn(request, chatId, withHeaders({ signal }, headers));
      return streamOf(chatId, headers, abortSignal, open, () => resumes.get(chatId) === generation);
    },
  };
}

/** The chatwire turn for what `Chat` asks: see `createChatwireTransport`. */
function turnFor(
  trigger: SendOptions['trigger'],
  chatId: string,
  messageId: string | undefined,
  messages: readonly UIMessage[],
): TurnRequest {
  if (trigger === 'regenerate-message') {
    const user = lastUserMessage(messages);
    return user ? { chatId, trigger: 'regenerate', userMessageId: user.id } : { chatId, trigger: 'regenerate' };
  }
  const last = messages[messages.length - 1];
  if (last?.role === 'assistant') {
    const approvals = approvalAnswersOf(last);
    if (approvals) return { chatId, trigger: 'approval', approvals };
  }
  if (!last || last.role !== 'user') {
    throw new ChatwireClientError(
      'VALIDATION',
      'chatwire transport: the last message must be a user message, or an assistant message whose tool approvals are all answered',
      { status: 0 },
    );
  }
  const trig = messageId !== undefined && messageId === last.id ? 'edit' : 'submit';
  return { chatId, trigger: trig, userMessageId: last.id, content: textOf(last) };
}

/**
 * A regenerate names the last user message the SDK kept. When its turn failed the server never stored it
 * (a failed turn stores nothing) and answers 404 `MESSAGE_NOT_FOUND`: that is useChat's "retry" (`regenerate()`
 * after an error), sent again as a submit of that message. Returns that submit, or null for other turns.
 */
function unsavedRetry(turn: TurnRequest, messages: readonly UIMessage[]): TurnRequest | null {
  if (turn.trigger !== 'regenerate' || turn.userMessageId === undefined) return null;
  const user = messages.find((m) => m.id === turn.userMessageId)!;
  const retry: TurnRequest = { chatId: turn.chatId, userMessageId: user.id, content: textOf(user) };
  if (turn.modelId !== undefined) retry.modelId = turn.modelId;
  return retry;
}

/** Sends the retry after a 404 `MESSAGE_NOT_FOUND`; if the id is stored after all (409 `DUPLICATE_MESSAGE`: not as a user message of this chat), the 404 stands. */
async function retryUnsaved(error: unknown, send: () => Promise<OpenTurn>): Promise<OpenTurn> {
  if (!ChatwireClientError.is(error, 'MESSAGE_NOT_FOUND')) throw error;
  try {
    return await send();
  } catch (retryError) {
    throw ChatwireClientError.is(retryError, 'DUPLICATE_MESSAGE') ? error : retryError;
  }
}

function lastUserMessage(messages: readonly UIMessage[]): UIMessage | undefined {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i]!.role === 'user') return messages[i];
  return undefined;
}

function textOf(message: UIMessage): string {
  let text = '';
  for (const part of message.parts) if (part.type === 'text') text += part.text;
  return text;
}

function modelIdFrom(body: ChatRequestOptions['body']): string | undefined {
  const value = (body as { modelId?: unknown } | undefined)?.modelId;
  return typeof value === 'string' ? value : undefined;
}

function withHeaders<T extends object>(init: T, headers: ExtraHeaders): T & { headers?: Record<string, string> | Headers } {
  return headers ? { ...init, headers } : init;
}
