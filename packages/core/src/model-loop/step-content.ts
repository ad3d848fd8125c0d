import type { JSONValue, SharedV2ProviderMetadata } from '@ai-sdk/provider';
import { getErrorMessage } from '@ai-sdk/provider';
import type { AssistantModelMessage, ModelMessage, ToolModelMessage, ToolSet } from 'ai';

type ToolOutputPart = ToolModelMessage['content'][number]['output'];

/** What one model step produced, in order: what the next step's prompt is built from. */
export type StepContentPart =
  | { type: 'text' | 'reasoning'; text: string; providerMetadata?: SharedV2ProviderMetadata }
  | { type: 'file'; base64: string; mediaType: string; providerMetadata?: SharedV2ProviderMetadata }
  | { type: 'tool-call'; toolCallId: string; toolName: string; input: unknown; providerExecuted?: boolean; providerMetadata?: SharedV2ProviderMetadata }
  | { type: 'tool-result'; toolCallId: string; toolName: string; output: unknown; providerExecuted?: boolean; providerMetadata?: SharedV2ProviderMetadata }
  | { type: 'tool-error'; toolCallId: string; toolName: string; error: unknown; providerExecuted?: boolean; providerMetadata?: SharedV2ProviderMetadata };

/**
 * The messages a finished step adds to the next step's prompt, exactly as the AI SDK builds them
 * (`toResponseMessages`): one assistant message with the step's text, reasoning, files, tool calls and
 * provider-executed results, then one tool message with the results of the tools this process ran.
 */
export function stepResponseMessages(content: readonly StepContentPart[], tools: ToolSet): ModelMessage[] {
  const messages: ModelMessage[] = [];
  const assistant: AssistantModelMessage['content'] & unknown[] = [];
  for (const part of content) {
    switch (part.type) {
      case 'text':
      case 'reasoning':
        if (part.type === 'text' && part.text.length === 0) break;
        assistant.push({ type: part.type, text: part.text, providerOptions: part.providerMetadata });
        break;
      case 'file':
        assistant.push({ type: 'file', data: part.base64, mediaType: part.mediaType, providerOptions: part.providerMetadata });
        break;
      case 'tool-call':
        assistant.push({
          type: 'tool-call',
          toolCallId: part.toolCallId,
          toolName: part.toolName,
          input: part.input,
          providerExecuted: part.providerExecuted,
          providerOptions: part.providerMetadata,
        });
        break;
      case 'tool-result':
      case 'tool-error':
        if (!part.providerExecuted) break;
        assistant.push({
          ...resultPart(part, tools, 'json'),
          ...(part.type === 'tool-result' ? { providerExecuted: true } : {}),
          providerOptions: part.providerMetadata,
        } as never);
        break;
    }
  }
  if (assistant.length > 0) messages.push({ role: 'assistant', content: assistant });
  const results: ToolModelMessage['content'] = [];
  for (const part of content) {
    if ((part.type !== 'tool-result' && part.type !== 'tool-error') || part.providerExecuted) continue;
    results.push({
      ...resultPart(part, tools, 'text'),
      ...(part.providerMetadata != null ? { providerOptions: part.providerMetadata } : {}),
    });
  }
  if (results.length > 0) messages.push({ role: 'tool', content: results });
  return messages;
}

/** A tool result (or error) as a prompt part; `errorMode`: how an error is put (the SDK uses json for a provider's, text for ours). */
function resultPart(
  part: Extract<StepContentPart, { type: 'tool-result' | 'tool-error' }>,
  tools: ToolSet,
  errorMode: 'text' | 'json',
): { type: 'tool-result'; toolCallId: string; toolName: string; output: ToolOutputPart } {
  const tool = tools[part.toolName];
  const output = part.type === 'tool-result' ? toolModelOutput(part.output, tool, 'none') : toolModelOutput(part.error, tool, errorMode);
  return { type: 'tool-result', toolCallId: part.toolCallId, toolName: part.toolName, output };
}

/** The AI SDK's `createToolModelOutput`: how a tool's output (or error) is put to the model. */
function toolModelOutput(output: unknown, tool: ToolSet[string] | undefined, errorMode: 'none' | 'text' | 'json'): ToolOutputPart {
  if (errorMode === 'text') return { type: 'error-text', value: getErrorMessage(output) };
  if (errorMode === 'json') return { type: 'error-json', value: (output === undefined ? null : output) as JSONValue };
  if (tool?.toModelOutput) return tool.toModelOutput(output as never);
  return typeof output === 'string' ? { type: 'text', value: output } : { type: 'json', value: (output === undefined ? null : output) as JSONValue };
}
