import { ChatwireError, RECORD_ID_PATTERN } from '@chatwire/storage';
import { TURN_TRIGGERS, type TurnInput, type TurnTrigger } from '../turn/turn-input.js';

/** Validation of what callers send to the chat service. Every failure is a VALIDATION error naming the field. */

export const MAX_TITLE_LENGTH = 500;
export const DEFAULT_TITLE = 'New chat';
const ID_PATTERN = RECORD_ID_PATTERN;

export interface ListChatsInput {
  limit?: number | undefined;
  cursor?: string | undefined;
}

function invalid(message: string, field: string): never {
  throw new ChatwireError('VALIDATION', message, { details: { field } });
}

function asObject(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    invalid('Request body must be a JSON object', 'body');
  }
  return body as Record<string, unknown>;
}

function typeName(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
}

function title(value: unknown, required: boolean): string | undefined {
  if (value === undefined && !required) return undefined;
  if (typeof value !== 'string') invalid(`'title' must be a string, got ${typeName(value)}`, 'title');
  const trimmed = value.trim();
  if (trimmed.length === 0) invalid("'title' must not be empty", 'title');
  if (trimmed.length > MAX_TITLE_LENGTH) invalid(`'title' must be at most ${MAX_TITLE_LENGTH} characters`, 'title');
  return trimmed;
}

function id(value: unknown, field: string): string {
  if (typeof value !== 'string') invalid(`'${field}' must be a string, got ${typeName(value)}`, field);
  if (!ID_PATTERN.test(value)) invalid(`'${field}' must be 1-128 characters of A-Z a-z 0-9 . _ : -`, field);
  return value;
}

export function parseCreateChatInput(body: unknown): { title?: string } {
  const object = body === undefined ? {} : asObject(body);
  const value = title(object.title, false);
  return value === undefined ? {} : { title: value };
}

export function parseRenameChatInput(body: unknown): { title: string } {
  return { title: title(asObject(body).title, true)! };
}

export function parseTurnInput(body: unknown): TurnInput {
  const object = asObject(body);
  const chatId = id(object.chatId, 'chatId');
  const trigger = object.trigger ?? 'submit';
  if (typeof trigger !== 'string' || !(TURN_TRIGGERS as readonly string[]).includes(trigger)) {
    invalid(`'trigger' must be one of ${TURN_TRIGGERS.join(', ')}`, 'trigger');
  }
  const { content, modelId } = object;
  // modelId is checked against the allow-list by the model registry (MODEL_NOT_ALLOWED).
  const model = modelId === null ? undefined : (modelId as string | undefined);
  if (trigger === 'regenerate') {
    if (content !== undefined) invalid("'content' must not be sent with trigger 'regenerate'", 'content');
    const userMessageId = object.userMessageId == null ? undefined : id(object.userMessageId, 'userMessageId');
    return { chatId, trigger, userMessageId, modelId: model };
  }
  const userMessageId = id(object.userMessageId, 'userMessageId');
  if (typeof content !== 'string') invalid(`'content' must be a string, got ${typeName(content)}`, 'content');
  if (content.trim().length === 0) invalid("'content' must not be empty", 'content');
  return { chatId, trigger: trigger as TurnTrigger, userMessageId, content, modelId: model };
}

export function parseListChatsInput(query: { limit?: string | null; cursor?: string | null }): ListChatsInput {
  const out: ListChatsInput = {};
  if (query.limit != null && query.limit !== '') {
    const limit = Number(query.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) invalid("'limit' must be an integer from 1 to 100", 'limit');
    out.limit = limit;
  }
  if (query.cursor != null && query.cursor !== '') out.cursor = query.cursor;
  return out;
}

/** True when `value` could be a record id; anything else cannot name an existing chat (404, not 400). */
export function isRecordId(value: string): boolean {
  return ID_PATTERN.test(value);
}
