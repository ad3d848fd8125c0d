// Stream decoding (spec 6): bytes -> lines -> chunks -> actions.
export { UI_MESSAGE_CHUNK_TYPES } from './ui-message-chunk.js';
export type {
  DataChunk,
  FinishReason,
  JsonArray,
  JsonObject,
  JsonValue,
  ProviderMetadata,
  UiMessageChunk,
  UiMessageChunkType,
} from './ui-message-chunk.js';
export { createLineSplitter, type LineSplitter } from './create-line-splitter.js';
export { parseSseLine, type SkipReason, type SkippedLineHandler } from './parse-sse-line.js';
export { validateChunk } from './validate-chunk.js';
export { createChunkDecoder, type ChunkDecoder, type ChunkDecoderOptions } from './create-chunk-decoder.js';
export type { ByteSource } from './byte-source.js';
export { decodeChunks, type DecodeOptions } from './decode-chunks.js';
export { decodeActionBatches, decodeActions, type DecodeActionsOptions } from './decode-actions.js';
export { chunkToAction, CHUNK_TYPES_WITHOUT_ACTION } from './chunk-to-action.js';
export type {
  AbortAction,
  Action,
  ActionType,
  AppendTextAction,
  FailToolInputAction,
  FailToolOutputAction,
  FinalizeToolCallAction,
  FinishAction,
  RequestApprovalAction,
  StopAction,
  StreamErrorAction,
  UpsertToolCallAction,
} from './action.js';

// Rendering state.
export { createAssistantMessage, toolCallsOf } from './assistant-message.js';
export type {
  AssistantMessage,
  AssistantMessageStatus,
  AssistantPart,
  TextPart,
  ToolCallPart,
  ToolCallState,
} from './assistant-message.js';
export { reduceAssistantMessage, reduceAssistantMessageAll } from './reduce-assistant-message.js';
export { mergeMessages, type ChatMessage, type PendingTurn } from './merge-messages.js';

// HTTP.
export {
  ChatwireClientError,
  isChatwireClientError,
  type ChatwireClientErrorCode,
  type ChatwireClientErrorOptions,
} from './chatwire-client-error.js';
export type { ConnectionOptions } from './create-requester.js';
export type { ApprovalAnswer, TurnRequest, TurnTrigger } from './post-turn.js';
export { approvalAnswersOf, approvalRequestsOf, approvalsAnswered, type ApprovalRequest } from './approval-answers.js';
export type { TurnStream } from './create-turn-stream.js';
export {
  createChatClient,
  type CallOptions,
  type ChatClient,
  type ChatClientOptions,
  type SendMessageInput,
  type SentMessage,
  type StartedTurn,
  type StreamTurnInput,
} from './create-chat-client.js';
export type { ChatPage, ChatRecord, ChatWithMessages, DeleteResult, MessageRecord, MessageRole, MessageStatus } from './route-types.js';
export type { SearchOptions, SearchPage, SearchResult } from './search-chats.js';
export type { CreatedShare, Feedback, FeedbackRating, Share, SharedChat } from './feedback-share-routes.js';
export type { AttachmentRecord } from './attachment-routes.js';
export { createChatwireTransport, type ChatwireTransportOptions } from './create-chatwire-transport.js';
export type { ApprovalChunks } from './sdk-approval-chunks.js';
export { withApprovalRequested } from './sdk-approval-parts.js';
export { createBranchSwitcher, toUiMessages, type BranchSwitcher, type BranchedUiMessage, type UiMessagesOptions } from './branch-switcher.js';
export type { BranchPosition } from './branch-position.js';
export type { BranchAction } from './branch-action.js';
