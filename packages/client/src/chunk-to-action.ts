import type { Action, UpsertToolCallAction } from './action.js';
import type { UiMessageChunk } from './ui-message-chunk.js';
import { branchActionOf } from './branch-action.js';

/**
 * Chunk types that map to no action: `start` (the assistant id already comes from `X-Asst-Id`; a tree chat's
 * `start` whose `messageMetadata` has a `branch` is the `branch` action),
 * `start-step`, `finish-step`, `text-start`, `text-end` (a text part opens with its first delta),
 * `reasoning-start`, `reasoning-delta`, `reasoning-end` (chatwire never sends reasoning), `source-url`,
 * `source-document`, `file`, `message-metadata` and every `data-*` chunk but `data-tool-approval` (which is
 * `request-approval`). Use the chunk stream to read them.
 */
export const CHUNK_TYPES_WITHOUT_ACTION = [
  'start',
  'start-step',
  'finish-step',
  'text-start',
  'text-end',
  'reasoning-start',
  'reasoning-delta',
  'reasoning-end',
  'source-url',
  'source-document',
  'file',
  'message-metadata',
  'data-*',
] as const;

/** A validated chunk to its action, or `undefined` for the types listed in `CHUNK_TYPES_WITHOUT_ACTION`. */
export function chunkToAction(chunk: UiMessageChunk): Action | undefined {
  if (chunk.type === 'data-tool-approval') return approvalAction(chunk as { data: unknown });
  switch (chunk.type) {
    case 'text-delta':
      return { type: 'append-text', id: chunk.id, delta: chunk.delta };
    case 'tool-input-start':
      return withFlags(
        { type: 'upsert-tool-call', toolCallId: chunk.toolCallId, state: 'input-streaming', toolName: chunk.toolName },
        chunk,
      );
    case 'tool-input-delta':
      return {
        type: 'upsert-tool-call',
        toolCallId: chunk.toolCallId,
        state: 'input-streaming',
        inputTextDelta: chunk.inputTextDelta,
      };
    case 'tool-input-available':
      return withFlags(
        {
          type: 'upsert-tool-call',
          toolCallId: chunk.toolCallId,
          state: 'input-available',
          toolName: chunk.toolName,
          input: chunk.input,
        },
        chunk,
      );
    case 'tool-output-available':
      return chunk.preliminary === undefined
        ? { type: 'finalize-tool-call', toolCallId: chunk.toolCallId, output: chunk.output }
        : { type: 'finalize-tool-call', toolCallId: chunk.toolCallId, output: chunk.output, preliminary: chunk.preliminary };
    case 'tool-input-error':
      return {
        type: 'fail-tool-input',
        toolCallId: chunk.toolCallId,
        toolName: chunk.toolName,
        input: chunk.input,
        errorText: chunk.errorText,
      };
    case 'tool-output-error':
      return { type: 'fail-tool-output', toolCallId: chunk.toolCallId, errorText: chunk.errorText };
    case 'error':
      return { type: 'stream-error', errorText: chunk.errorText, origin: 'server' };
    case 'abort':
      return { type: 'abort', origin: 'server' };
    case 'start':
      return branchActionOf(chunk.messageMetadata);
    case 'finish':
      return chunk.finishReason === undefined ? { type: 'finish' } : { type: 'finish', finishReason: chunk.finishReason };
    default:
      return undefined;
  }
}

function withFlags(
  action: UpsertToolCallAction,
  chunk: { providerExecuted?: boolean; dynamic?: boolean },
): UpsertToolCallAction {
  if (chunk.providerExecuted !== undefined) action.providerExecuted = chunk.providerExecuted;
  if (chunk.dynamic !== undefined) action.dynamic = chunk.dynamic;
  return action;
}

/** `data-tool-approval` with its `{ toolCallId, toolName, input }`; another shape maps to nothing. */
function approvalAction(chunk: { data: unknown }): Action | undefined {
  const data = chunk.data as { toolCallId?: unknown; toolName?: unknown; input?: unknown } | null;
  if (typeof data !== 'object' || data === null || typeof data.toolCallId !== 'string' || typeof data.toolName !== 'string') return undefined;
  return { type: 'request-approval', toolCallId: data.toolCallId, toolName: data.toolName, input: data.input };
}
