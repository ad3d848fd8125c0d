import type { UIMessageChunk } from 'ai';
import { TOOL_APPROVAL_CHUNK, type PausedCall } from './approval-types.js';

/**
 * The chunk that asks the user about one call: `data-tool-approval` (a data chunk every `useChat` major
 * accepts), its `id` the tool call id, `data: { toolCallId, toolName, input }`.
 */
export function toolApprovalChunk(call: Pick<PausedCall, 'toolCallId' | 'toolName' | 'input'>): UIMessageChunk {
  return { type: TOOL_APPROVAL_CHUNK, id: call.toolCallId, data: { toolCallId: call.toolCallId, toolName: call.toolName, input: call.input } };
}
