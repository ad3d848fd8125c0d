import type { UiMessageChunk } from './ui-message-chunk.js';

/**
 * Checks a parsed JSON value against the UI message chunk shapes of ai@5 by hand (no zod on the hot path):
 * `type` must be one of the 22 known types or start with `data-`, the required fields of that type must be
 * present with the right primitive type, and optional fields must have the right type when present.
 * Accepts exactly what `uiMessageChunkSchema` of `ai` accepts (see the differential test): `unknown`-typed
 * required fields (`input`, `output`, `data`, `messageMetadata` of `message-metadata`) must be present but
 * may hold any value, and extra fields are kept. The value is returned as is (no copy), with one exception: a
 * `finish` whose `finishReason` is ai@5's `unknown` (which ai@6 and ai@7 removed) comes back as a copy with
 * `other`, so every decoded chunk is also a chunk of ai@6 and ai@7. `undefined` means "not a chunk".
 */
export function validateChunk(value: unknown): UiMessageChunk | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const o = value as Record<string, unknown>;
  const type = o.type;
  if (typeof type !== 'string') return undefined;
  let ok: boolean;
  switch (type) {
    case 'text-delta':
    case 'reasoning-delta':
      ok = typeof o.id === 'string' && typeof o.delta === 'string' && meta(o.providerMetadata);
      break;
    case 'text-start':
    case 'text-end':
    case 'reasoning-start':
    case 'reasoning-end':
      ok = typeof o.id === 'string' && meta(o.providerMetadata);
      break;
    case 'tool-input-start':
      ok = typeof o.toolCallId === 'string' && typeof o.toolName === 'string' && flags(o);
      break;
    case 'tool-input-delta':
      ok = typeof o.toolCallId === 'string' && typeof o.inputTextDelta === 'string';
      break;
    case 'tool-input-available':
      ok =
        typeof o.toolCallId === 'string' &&
        typeof o.toolName === 'string' &&
        'input' in o &&
        flags(o) &&
        meta(o.providerMetadata);
      break;
    case 'tool-input-error':
      ok =
        typeof o.toolCallId === 'string' &&
        'input' in o &&
        typeof o.toolName === 'string' &&
        typeof o.errorText === 'string' &&
        flags(o) &&
        meta(o.providerMetadata);
      break;
    case 'tool-output-available':
      ok = typeof o.toolCallId === 'string' && 'output' in o && flags(o) && optBool(o.preliminary);
      break;
    case 'tool-output-error':
      ok = typeof o.toolCallId === 'string' && typeof o.errorText === 'string' && flags(o);
      break;
    case 'source-url':
      ok =
        typeof o.sourceId === 'string' && typeof o.url === 'string' && optStr(o.title) && meta(o.providerMetadata);
      break;
    case 'source-document':
      ok =
        typeof o.sourceId === 'string' &&
        typeof o.mediaType === 'string' &&
        typeof o.title === 'string' &&
        optStr(o.filename) &&
        meta(o.providerMetadata);
      break;
    case 'file':
      ok = typeof o.url === 'string' && typeof o.mediaType === 'string' && meta(o.providerMetadata);
      break;
    case 'start':
      ok = optStr(o.messageId);
      break;
    case 'finish':
      if (o.finishReason === 'unknown') return { ...o, finishReason: 'other' } as UiMessageChunk;
      ok = o.finishReason === undefined || FINISH_REASONS.has(o.finishReason as string);
      break;
    case 'error':
      ok = typeof o.errorText === 'string';
      break;
    case 'message-metadata':
      ok = 'messageMetadata' in o;
      break;
    case 'start-step':
    case 'finish-step':
    case 'abort':
      ok = true;
      break;
    default:
      ok = type.startsWith('data-') && 'data' in o && optStr(o.id) && optBool(o.transient);
  }
  return ok ? (value as UiMessageChunk) : undefined;
}

const FINISH_REASONS: ReadonlySet<string> = new Set([
  'stop',
  'length',
  'content-filter',
  'tool-calls',
  'error',
  'other',
]);

const optStr = (v: unknown): boolean => v === undefined || typeof v === 'string';
const optBool = (v: unknown): boolean => v === undefined || typeof v === 'boolean';
const flags = (o: Record<string, unknown>): boolean => optBool(o.providerExecuted) && optBool(o.dynamic);

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** `providerMetadata`: absent, or `Record<string, Record<string, JSONValue>>` (values came from JSON.parse). */
function meta(v: unknown): boolean {
  if (v === undefined) return true;
  if (!isRecord(v)) return false;
  for (const key in v) if (!isRecord(v[key])) return false;
  return true;
}
