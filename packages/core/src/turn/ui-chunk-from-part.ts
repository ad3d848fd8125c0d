import type { TextStreamPart, ToolSet, UIMessageChunk } from 'ai';
import { safeErrorText, toolErrorText } from './error-text.js';

/**
 * Maps one `streamText` full-stream part to the UI message stream chunk the client receives: the same
 * mapping as the AI SDK's `toUIMessageStream({ sendReasoning: false })`, field for field, except that
 * chatwire never sends:
 * - reasoning (none of the three `reasoning-*` types), sources, raw parts, and the SDK's own `start`
 *   (the turn writes its own first, with the assistant message id);
 * - `providerMetadata` on any chunk (provider-internal ids and signatures the client has no use for);
 * - masked error texts: tool error texts pass through, provider and internal errors become a safe message.
 *
 * Tool chunks keep `providerExecuted` (tools the provider ran itself, such as web search or code execution,
 * render as finished calls, never as calls waiting for a result) and `dynamic`, which the SDK sets only when
 * the turn's tool set holds the tool as a dynamic tool: pass that tool set as `tools`.
 */
export function uiChunkFromPart(part: TextStreamPart<ToolSet>, tools?: ToolSet): UIMessageChunk | undefined {
  switch (part.type) {
    case 'text-start':
    case 'text-end':
      return { type: part.type, id: part.id };
    case 'text-delta':
      return { type: 'text-delta', id: part.id, delta: part.text };
    case 'tool-input-start':
      return {
        type: 'tool-input-start',
        toolCallId: part.id,
        toolName: part.toolName,
        ...providerExecuted(part.providerExecuted),
        ...dynamic(tools, part.toolName),
      };
    case 'tool-input-delta':
      return { type: 'tool-input-delta', toolCallId: part.id, inputTextDelta: part.delta };
    case 'tool-call':
      return part.invalid
        ? {
            type: 'tool-input-error',
            toolCallId: part.toolCallId,
            toolName: part.toolName,
            input: part.input,
            ...providerExecuted(part.providerExecuted),
            ...dynamic(tools, part.toolName),
            errorText: toolErrorText(part.error),
          }
        : {
            type: 'tool-input-available',
            toolCallId: part.toolCallId,
            toolName: part.toolName,
            input: part.input,
            ...providerExecuted(part.providerExecuted),
            ...dynamic(tools, part.toolName),
          };
    case 'tool-result':
      return {
        type: 'tool-output-available',
        toolCallId: part.toolCallId,
        output: part.output,
        ...providerExecuted(part.providerExecuted),
        ...(part.preliminary != null ? { preliminary: part.preliminary } : {}),
        ...dynamic(tools, part.toolName),
      };
    case 'tool-error':
      return {
        type: 'tool-output-error',
        toolCallId: part.toolCallId,
        errorText: toolErrorText(part.error),
        ...providerExecuted(part.providerExecuted),
        ...dynamic(tools, part.toolName),
      };
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

function providerExecuted(value: boolean | undefined): { providerExecuted?: boolean } {
  return value != null ? { providerExecuted: value } : {};
}

/**
 * `dynamic: true` exactly when the tool set holds this tool name as a dynamic tool. A call the SDK marks
 * dynamic for another reason (an unknown tool name, a provider-executed tool outside the tool set) stays a
 * static tool part, as in the SDK's UI stream.
 */
function dynamic(tools: ToolSet | undefined, toolName: string): { dynamic?: true } {
  return tools?.[toolName]?.type === 'dynamic' ? { dynamic: true } : {};
}
