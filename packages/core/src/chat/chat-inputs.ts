import { ChatwireError, RECORD_ID_PATTERN } from '@chatwire/storage';
import type { z } from 'zod/v4';
import type { TurnInput } from '../turn/turn-input.js';
import {
  createChatBodySchema,
  jsonObjectSchema,
  listChatsQuerySchema,
  renameChatBodySchema,
  turnBodySchema,
} from './schemas/request-schemas.js';

/**
 * Validation of what callers send to the chat service, through the request schemas (the same ones
 * `GET /openapi.json` describes). Every failure is a VALIDATION error naming the field.
 */

export const DEFAULT_TITLE = 'New chat';

export interface ListChatsInput {
  limit?: number | undefined;
  cursor?: string | undefined;
}

/** The parsed value, or a VALIDATION error with the first issue's message and field (`body` for the whole body). */
function parse<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const field = issue.path.length > 0 ? String(issue.path[0]) : 'body';
  throw new ChatwireError('VALIDATION', issue.message, { details: { field } });
}

function asObject(body: unknown): Record<string, unknown> {
  return parse(jsonObjectSchema, Array.isArray(body) ? null : body);
}

export function parseCreateChatInput(body: unknown): { title?: string } {
  const { title } = parse(createChatBodySchema, body === undefined ? {} : asObject(body));
  return title === undefined ? {} : { title };
}

export function parseRenameChatInput(body: unknown): { title: string } {
  return parse(renameChatBodySchema, asObject(body));
}

export function parseTurnInput(body: unknown): TurnInput {
  const object = asObject(body);
  // A modelId that is not a string goes on to the model registry, whose answer is MODEL_NOT_ALLOWED.
  const raw = object.modelId;
  const checked = typeof raw === 'string' ? object : { ...object, modelId: undefined };
  const parsed = parse(turnBodySchema, checked);
  const { chatId, trigger, modelId } = parsed;
  const model = typeof raw === 'string' || raw == null ? (modelId ?? undefined) : (raw as string);
  if (parsed.trigger === 'approval') {
    const approvals = parsed.approvals.map(({ toolCallId, approved, reason }) => (reason == null ? { toolCallId, approved } : { toolCallId, approved, reason }));
    return { chatId, trigger: 'approval', approvals, modelId: model };
  }
  const { userMessageId, content } = parsed;
  if (trigger === 'regenerate') return { chatId, trigger, userMessageId: userMessageId ?? undefined, modelId: model };
  const attachmentIds = 'attachments' in parsed ? (parsed.attachments ?? undefined) : undefined;
  return { chatId, trigger: trigger ?? 'submit', userMessageId: userMessageId!, content: content!, modelId: model, ...(attachmentIds?.length ? { attachmentIds } : {}) };
}

export function parseListChatsInput(query: { limit?: string | null; cursor?: string | null }): ListChatsInput {
  const present = (value: string | null | undefined) => (value == null || value === '' ? undefined : value);
  // The common first page sends neither: nothing to parse (the schema would accept both absent).
  if (present(query.limit) === undefined && present(query.cursor) === undefined) return {};
  const { limit, cursor } = parse(listChatsQuerySchema, { limit: present(query.limit), cursor: present(query.cursor) });
  const out: ListChatsInput = {};
  if (limit !== undefined) out.limit = limit;
  if (cursor !== undefined) out.cursor = cursor;
  return out;
}

/** True when `value` could be a record id; anything else cannot name an existing chat (404, not 400). */
export function isRecordId(value: string): boolean {
  return RECORD_ID_PATTERN.test(value);
}
