/**
 * Type fixture (never run): what an app writes with `useChat` and chatwire's transport. `use-chat-types.test.ts`
 * compiles it, with the client's sources it imports, against each AI SDK major's own `ai` and `@ai-sdk/react`
 * under `strict` without `skipLibCheck`; the workspace typecheck compiles it against ai@5.
 */
import { Chat, useChat } from '@ai-sdk/react';
import type { ChatTransport, UIMessage, UIMessageChunk } from 'ai';
import {
  createChatClient,
  createChatwireTransport,
  type ChatwireTransportOptions,
  type FinishReason,
  type MessageRecord,
  type UiMessageChunk,
  approvalsAnswered,
  toUiMessages,
} from '../index.js';

const options: ChatwireTransportOptions = {
  baseUrl: '/api/ai',
  getToken: () => 'jwt',
  modelId: 'alpha-haiku-4-5',
  onStopError: (error, { chatId }) => void [error, chatId],
  stopRetryDelays: [250, 1000],
};

/** The README's setup: `useChat({ transport })` with the default message type. */
export function useChatwire(id: string, stored: MessageRecord[]) {
  const transport = createChatwireTransport(options);
  const helpers = useChat({
    id,
    transport,
    resume: true,
    messages: stored.map(
      (m): UIMessage => ({
        id: m.recordId,
        role: m.data.role,
        parts: (m.data.parts as UIMessage['parts'] | undefined) ?? [{ type: 'text', text: m.data.content }],
      }),
    ),
  });
  const edit = (messageId: string, text: string) => helpers.sendMessage({ text, messageId });
  const send = (text: string) => helpers.sendMessage({ text }, { body: { modelId: 'beta-5.4-mini' }, headers: { 'x-trace': '1' } });
  return { ...helpers, edit, send, retry: () => helpers.regenerate(), stop: () => helpers.stop(), resume: () => helpers.resumeStream() };
}

/** AI SDK 6/7 approvals (`approvalChunks: 'sdk'`; the option and the helpers compile on every major). */
export function useApprovals(id: string, stored: MessageRecord[]) {
  const transport = createChatwireTransport({ ...options, approvalChunks: 'sdk' });
  return useChat({ id, transport, messages: toUiMessages(stored, { approvalChunks: 'sdk' }), sendAutomaticallyWhen: approvalsAnswered });
}

/** An app's own message type, and the `Chat` class outside React. */
type AppMessage = UIMessage<{ createdAt: number }>;
export function appChat(id: string): Chat<AppMessage> {
  const transport: ChatTransport<AppMessage> = createChatwireTransport<AppMessage>(options);
  useChat<AppMessage>({ chat: new Chat<AppMessage>({ id, transport }) });
  return new Chat<AppMessage>({ id, transport });
}

/** The route client's decoded chunks are chunks of this major too (no finish reason it lacks). */
export async function chunksOfTurn(chatId: string): Promise<UIMessageChunk[]> {
  const turn = await createChatClient(options).sendMessage({ chatId, content: 'hi' });
  const chunks: UIMessageChunk[] = [];
  for await (const chunk of turn.chunks) chunks.push(chunk satisfies UiMessageChunk);
  const reason: FinishReason | undefined = undefined;
  const sdkReason: Extract<UIMessageChunk, { type: 'finish' }>['finishReason'] = reason;
  return sdkReason === undefined ? chunks : [];
}
