import type { TextStreamPart, ToolSet, UIMessageChunk } from 'ai';
import { safeErrorText, toolErrorText } from './error-text.js';

/**
 * Maps one `streamText` full-stream part to the UI message stream chunk the client receives, the same
 * mapping as the AI SDK's `toUIMessageStream` minus what chatwire never sends: reasoning (all three
 * `reasoning-*` types), sources, raw parts, and the SDK's own `start` (the turn writes its own first).
 * Tool error texts pass through; provider errors become a safe message.
 */
export function uiChunkFromPart(part: TextStreamPart<ToolSet>): UIMessageChunk | undefined {
  switch (part.type) {
    case 'text-start':
    case 'text-end':
      return { type: part.type, id: part.id };
    case 'text-delta':
      return { type: 'text-delta', id: part.id, delta: part.text };
    case 'tool-input-start':
      return { type: 'tool-input-start', toolCallId: part.id, toolName: part.toolName };
    case 'tool-input-delta':
      return { type: 'tool-input-delta', toolCallId: part.id, inputTextDelta: part.delta };
    case 'tool-call':
      return part.invalid
        ? {
            type: 'tool-input-error',
            toolCallId: part.toolCallId,
            toolName: part.toolName,
            input: part.input,
            errorText: toolErrorText(part.error),
          }
        : { type: 'tool-input-available', toolCallId: part.toolCallId, toolName: part.toolName, input: part.input };
    case 'tool-result':
      return part.preliminary
        ? { type: 'tool-output-available', toolCallId: part.toolCallId, output: part.output, preliminary: true }
        : { type: 'tool-output-available', toolCallId: part.toolCallId, output: part.output };
    case 'tool-error':
      return { type: 'tool-output-error', toolCallId: part.toolCallId, errorText: toolErrorText(part.error) };
    case 'file':
      return { type: 'file', mediaType: part.file.mediaType, url: `data:${part.file.mediaType};base64,${part.file.base64}` };
    case 'start-step':
      return { type: 'start-step' };
    case 'finish-step':
      return { type: 'finish-step' };
    case 'finish':
      return { type: 'finish', finishReason: part.finishReason };
    case 'abort':
      return { type: 'abort' };
    case 'error':
      return { type: 'error', errorText: safeErrorText(part.error) };
    default:
      // reasoning-*, source, raw, start, tool-input-end: not sent.
      return undefined;
  }
}
