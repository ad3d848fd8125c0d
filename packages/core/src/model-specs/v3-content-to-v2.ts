import type { LanguageModelV2Content, SharedV2ProviderMetadata } from '@ai-sdk/provider';
import type { LanguageModelV3Content } from 'provider-v6';
import type { LanguageModelV4Content } from 'provider-v7';
import { unsupportedPartError, type PartSource } from './unsupported-part-error.js';

/**
 * The content of a `v3`/`v4` `doGenerate` result as `v2` content, by the same rules as the stream parts
 * (`v3StreamPartToV2`): fields `v2` lacks and provider `custom` content (provider metadata only) are left out,
 * and content chatwire cannot run (a tool approval request, a reasoning file, a file given by URL, an unknown
 * type) throws the error naming it.
 */
export function v3ContentToV2(content: ReadonlyArray<LanguageModelV3Content | LanguageModelV4Content>, source: PartSource): LanguageModelV2Content[] {
  return content.filter((part) => part.type !== 'custom').map((part): LanguageModelV2Content => {
    switch (part.type) {
      case 'text':
      case 'reasoning':
        return { type: part.type, text: part.text, ...metadata(part.providerMetadata) };
      case 'file': {
        const data = part.data;
        if (typeof data === 'string' || data instanceof Uint8Array) return { type: 'file', mediaType: part.mediaType, data };
        if (data.type === 'data') return { type: 'file', mediaType: part.mediaType, data: data.data };
        throw unsupportedPartError('file', source, 'a file given by URL; chatwire passes files as bytes only');
      }
      case 'source':
        return { ...part, ...metadata(part.providerMetadata) } as LanguageModelV2Content;
      case 'tool-call':
        return v3ToolCallToV2(part);
      case 'tool-result':
        return v3ToolResultToV2(part);
      case 'tool-approval-request':
      case 'reasoning-file':
        throw unsupportedPartError(part.type, source, 'it has no place in an AI SDK 5 result');
      default:
        throw unsupportedPartError(String((part as { type?: unknown }).type), source, 'an unknown part type');
    }
  });
}

type V3ToolCall = Extract<LanguageModelV3Content | LanguageModelV4Content, { type: 'tool-call' }>;
type V3ToolResult = Extract<LanguageModelV3Content | LanguageModelV4Content, { type: 'tool-result' }>;

/** A `v3`/`v4` tool call (in a result's content or a stream) as `v2`'s. */
export function v3ToolCallToV2(part: V3ToolCall): Extract<LanguageModelV2Content, { type: 'tool-call' }> {
  return {
    type: 'tool-call',
    toolCallId: part.toolCallId,
    toolName: part.toolName,
    input: part.input,
    ...(part.providerExecuted !== undefined ? { providerExecuted: part.providerExecuted } : {}),
    ...metadata(part.providerMetadata),
  };
}

/** A `v3`/`v4` tool result as `v2`'s: a model only ever hands over results of tools the provider ran. */
export function v3ToolResultToV2(part: V3ToolResult): Extract<LanguageModelV2Content, { type: 'tool-result' }> {
  return {
    type: 'tool-result',
    toolCallId: part.toolCallId,
    toolName: part.toolName,
    result: part.result,
    ...(part.isError !== undefined ? { isError: part.isError } : {}),
    providerExecuted: true,
    ...metadata(part.providerMetadata),
  };
}

/** `providerMetadata` when the part has it (v2 parts leave the key out otherwise). */
export function metadata(value: object | undefined): { providerMetadata?: SharedV2ProviderMetadata } {
  return value !== undefined ? { providerMetadata: value as SharedV2ProviderMetadata } : {};
}
