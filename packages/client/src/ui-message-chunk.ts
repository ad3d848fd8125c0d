/**
 * The chunks of the AI SDK v5 UI message stream (`UIMessageChunk` of `ai@5`), declared here so the client
 * needs nothing from `ai` (not even its types) for decoding. `ui-message-chunk.test.ts` checks that this
 * union is assignable to the `UIMessageChunk` of ai@5, ai@6 and ai@7, and ai@5's to it (but `unknown`).
 */

/**
 * The finish reasons of ai@6 and ai@7, which ai@5 accepts too. ai@5's `unknown` (removed in ai@6) is decoded
 * as `other`, as the server sends it.
 */
export type FinishReason = 'stop' | 'length' | 'content-filter' | 'tool-calls' | 'error' | 'other';

/** Any JSON value (what `JSON.parse` can return); same shape as `JSONValue` of @ai-sdk/provider. */
export type JsonValue = null | string | number | boolean | JsonObject | JsonArray;
export type JsonObject = { [key: string]: JsonValue };
export type JsonArray = JsonValue[];

/** `Record<provider, Record<key, JSONValue>>`, passed through untouched. */
export type ProviderMetadata = Record<string, Record<string, JsonValue>>;

/** The 22 literal chunk types of ai@5 (`data-${string}` comes on top). */
export const UI_MESSAGE_CHUNK_TYPES = [
  'start',
  'start-step',
  'text-start',
  'text-delta',
  'text-end',
  'reasoning-start',
  'reasoning-delta',
  'reasoning-end',
  'tool-input-start',
  'tool-input-delta',
  'tool-input-available',
  'tool-input-error',
  'tool-output-available',
  'tool-output-error',
  'source-url',
  'source-document',
  'file',
  'message-metadata',
  'finish-step',
  'finish',
  'abort',
  'error',
] as const;

export type UiMessageChunkType = (typeof UI_MESSAGE_CHUNK_TYPES)[number] | `data-${string}`;

type Meta = { providerMetadata?: ProviderMetadata };
type ToolFlags = { providerExecuted?: boolean; dynamic?: boolean };

/** One decoded chunk. Extra fields sent by the server are kept (like the SDK's `looseObject`). */
export type UiMessageChunk =
  | { type: 'start'; messageId?: string; messageMetadata?: unknown }
  | { type: 'start-step' }
  | ({ type: 'text-start'; id: string } & Meta)
  | ({ type: 'text-delta'; id: string; delta: string } & Meta)
  | ({ type: 'text-end'; id: string } & Meta)
  | ({ type: 'reasoning-start'; id: string } & Meta)
  | ({ type: 'reasoning-delta'; id: string; delta: string } & Meta)
  | ({ type: 'reasoning-end'; id: string } & Meta)
  | ({ type: 'tool-input-start'; toolCallId: string; toolName: string } & ToolFlags)
  | { type: 'tool-input-delta'; toolCallId: string; inputTextDelta: string }
  | ({ type: 'tool-input-available'; toolCallId: string; toolName: string; input: unknown } & ToolFlags & Meta)
  | ({ type: 'tool-input-error'; toolCallId: string; toolName: string; input: unknown; errorText: string } & ToolFlags &
      Meta)
  | ({ type: 'tool-output-available'; toolCallId: string; output: unknown; preliminary?: boolean } & ToolFlags)
  | ({ type: 'tool-output-error'; toolCallId: string; errorText: string } & ToolFlags)
  | ({ type: 'source-url'; sourceId: string; url: string; title?: string } & Meta)
  | ({ type: 'source-document'; sourceId: string; mediaType: string; title: string; filename?: string } & Meta)
  | ({ type: 'file'; url: string; mediaType: string } & Meta)
  | DataChunk
  | { type: 'message-metadata'; messageMetadata: unknown }
  | { type: 'finish-step' }
  | { type: 'finish'; finishReason?: FinishReason; messageMetadata?: unknown }
  | { type: 'abort' }
  | { type: 'error'; errorText: string };

/** `data-<name>` chunk: app-defined payload; same `id` replaces an earlier part, `transient` is never stored. */
export interface DataChunk {
  type: `data-${string}`;
  id?: string;
  data: unknown;
  transient?: boolean;
}
