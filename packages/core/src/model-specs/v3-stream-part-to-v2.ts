import type { LanguageModelV2StreamPart } from '@ai-sdk/provider';
import type { LanguageModelV3StreamPart } from 'provider-v6';
import type { LanguageModelV4StreamPart } from 'provider-v7';
import { unsupportedPartError, type PartSource } from './unsupported-part-error.js';
import { metadata, v3ToolCallToV2, v3ToolResultToV2 } from './v3-content-to-v2.js';
import { v3FinishReasonToV2, v3UsageToV2 } from './v3-finish-to-v2.js';
import { v3WarningsToV2 } from './v3-warnings-to-v2.js';

export type V3StreamPart = LanguageModelV3StreamPart | LanguageModelV4StreamPart;

/**
 * One `v3`/`v4` stream part as the `v2` part chatwire's loop reads, or `undefined` for a part that carries
 * nothing chatwire streams, stores or sends back:
 * - `ping` (a keep-alive);
 * - a provider's preliminary tool result (such as a partial image): the final result follows, as it does from
 *   a `v2` provider, which never sends the partial ones;
 * - `custom` content: provider bookkeeping held in provider metadata only (Anthropic sends
 *   `anthropic.message_start` on every stream; also `anthropic.fallback`, `openai.compaction`), which chatwire
 *   neither streams nor stores, and which a `v2` prompt cannot carry back;
 * - fields `v2` lacks are left out: a tool input's `title`/`dynamic`/`inputEncoding` (chatwire knows which of
 *   its tools are dynamic), `citations` on `text-end` (the same sources arrive as `source` parts).
 *
 * A part chatwire cannot run becomes an `error` part naming it, so the turn ends instead of dropping it: a
 * tool approval request of a tool the provider runs (chatwire's approval is for the app's own tools), a
 * `reasoning-file`, a file given by URL (chatwire passes files as bytes only), and any part type it does not
 * know.
 */
export function v3StreamPartToV2(part: V3StreamPart, source: PartSource): LanguageModelV2StreamPart | undefined {
  switch (part.type) {
    case 'text-start':
    case 'reasoning-start':
    case 'reasoning-end':
    case 'tool-input-end':
      return { type: part.type, id: part.id, ...metadata(part.providerMetadata) };
    case 'text-end':
      return { type: 'text-end', id: part.id, ...metadata(part.providerMetadata) };
    case 'text-delta':
    case 'reasoning-delta':
    case 'tool-input-delta':
      return { type: part.type, id: part.id, delta: part.delta, ...metadata(part.providerMetadata) };
    case 'tool-input-start':
      return {
        type: 'tool-input-start',
        id: part.id,
        toolName: part.toolName,
        ...(part.providerExecuted !== undefined ? { providerExecuted: part.providerExecuted } : {}),
        ...metadata(part.providerMetadata),
      };
    case 'tool-call':
      return v3ToolCallToV2(part);
    case 'tool-result':
      if (part.preliminary === true) return undefined;
      // A tool result in a model's stream is always one the provider ran.
      return v3ToolResultToV2(part);
    case 'file': {
      const data = part.data;
      if (typeof data === 'string' || data instanceof Uint8Array) return { type: 'file', mediaType: part.mediaType, data };
      if (data.type === 'data') return { type: 'file', mediaType: part.mediaType, data: data.data };
      return refused('file', source, 'a file given by URL; chatwire passes files as bytes only');
    }
    case 'source':
      return { ...part, ...metadata(part.providerMetadata) } as LanguageModelV2StreamPart;
    case 'stream-start':
      return { type: 'stream-start', warnings: v3WarningsToV2(part.warnings) };
    case 'response-metadata':
      return part;
    case 'finish':
      return { type: 'finish', finishReason: v3FinishReasonToV2(part.finishReason), usage: v3UsageToV2(part.usage), ...metadata(part.providerMetadata) };
    case 'raw':
      return part;
    case 'error':
      return part;
    case 'ping':
    case 'custom':
      return undefined;
    case 'tool-approval-request':
      return refused(part.type, source, 'approval of a tool the provider runs itself is not supported');
    case 'reasoning-file':
      return refused(part.type, source, 'reasoning files have no place in an AI SDK 5 stream');
    default:
      return unknownPart(part, source);
  }
}

function refused(partType: string, source: PartSource, reason: string): LanguageModelV2StreamPart {
  return { type: 'error', error: unsupportedPartError(partType, source, reason) };
}

/** The exhaustiveness check: a part type neither `v3` nor `v4` has (a newer specification's). */
function unknownPart(part: never, source: PartSource): LanguageModelV2StreamPart {
  return refused(String((part as { type?: unknown }).type), source, 'an unknown part type');
}

