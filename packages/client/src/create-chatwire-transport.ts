import type { ChatRequestOptions, ChatTransport, UIMessage, UIMessageChunk } from 'ai';
import { ChatwireClientError } from './chatwire-client-error.js';
import { createRequester, type ConnectionOptions } from './create-requester.js';
import { decodeChunks, type DecodeOptions } from './decode-chunks.js';
import { postTurn, type TurnRequest } from './post-turn.js';
import type { UiMessageChunk } from './ui-message-chunk.js';

export interface ChatwireTransportOptions extends ConnectionOptions, DecodeOptions {
  /** Default model; `sendMessage(msg, { body: { modelId } })` overrides it per request. */
  modelId?: string;
}

type SendOptions = Parameters<ChatTransport<UIMessage>['sendMessages']>[0];

/**
 * An AI SDK v5 `ChatTransport` for `useChat` / `Chat` (@ai-sdk/react@2): posts ONLY the new user message as
 * `{ chatId, userMessageId, content, modelId }` (`userMessageId` = the UI message id, `content` = its text
 * parts joined) and returns the decoded chunk stream. Error responses reject with a `ChatwireClientError`
 * (an `Error` whose message is the server's and with `code`/`status`), which `useChat` puts in `error`.
 * `regenerate()` is not supported (chatwire stores each user message once) and rejects with
 * `UNSUPPORTED`; `reconnectToStream` returns `null` (no resumable streams). Imports nothing from `ai` at
 * run time (types only).
 */
export function createChatwireTransport<UI_MESSAGE extends UIMessage = UIMessage>(
  options: ChatwireTransportOptions,
): ChatTransport<UI_MESSAGE> {
  const request = createRequester(options);
  const decode: DecodeOptions = options.onSkippedLine ? { onSkippedLine: options.onSkippedLine } : {};
  return {
    async sendMessages({ trigger, chatId, messages, abortSignal, headers, body }: SendOptions) {
      if (trigger !== 'submit-message') {
        throw new ChatwireClientError('UNSUPPORTED', `chatwire transport: '${trigger}' is not supported`, { status: 0 });
      }
      const last = messages[messages.length - 1];
      if (!last || last.role !== 'user') {
        throw new ChatwireClientError('VALIDATION', 'chatwire transport: the last message must be a user message', {
          status: 0,
        });
      }
      const turn: TurnRequest = { chatId, userMessageId: last.id, content: textOf(last) };
      const modelId = modelIdFrom(body) ?? options.modelId;
      if (modelId !== undefined) turn.modelId = modelId;
      const { body: stream } = await postTurn(request, turn, {
        ...(abortSignal ? { signal: abortSignal } : {}),
        ...(headers ? { headers } : {}),
      });
      return toChunkStream(decodeChunks(stream, decode));
    },
    async reconnectToStream() {
      return null;
    },
  };
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

/** Pull-based: one chunk per pull, so back-pressure reaches the network reader; cancel closes the body. */
function toChunkStream(chunks: AsyncIterableIterator<UiMessageChunk>): ReadableStream<UIMessageChunk> {
  return new ReadableStream<UIMessageChunk>({
    async pull(controller) {
      const next = await chunks.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    async cancel() {
      await chunks.return?.();
    },
  });
}
