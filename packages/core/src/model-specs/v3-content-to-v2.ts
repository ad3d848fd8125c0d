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
        return {
          type: 'tool-call',
          toolCallId: part.toolCallId,
          toolName: part.toolName,
          input: part.input,
          ...(part.providerExecuted !== undefined ? { providerExecuted: part.providerExecuted } : {}),
          ...metadata(part.providerMetadata),
        };
      case 'tool-result':
        return {
          type: 'tool-result',
          toolCallId: part.toolCallId,
          toolName: part.toolName,
          result: part.result,
          ...(part.isError !== undefined ? { isError: part.isError } : {}),
          providerExecuted: true,
          ...metadata(part.providerMetadata),
        };
      case 'tool-approval-request':
      case 'reasoning-file':
        throw unsupportedPartError(part.type, source, 'it has no place in an AI SDK 5 result');
      default:
        throw unsupportedPartError(String((part as { type?: unknown }).type), source, 'an unknown part type');
    }
  });
}

function metadata(value: object | undefined): { providerMetadata?: SharedV2ProviderMetadata } {
  return value !== undefined ? { providerMetadata: value as SharedV2ProviderMetadata } : {};
}
