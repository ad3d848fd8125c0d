import { RECORD_ID_PATTERN } from '@chatwire/storage';
import { z } from 'zod/v4';
import { TURN_TRIGGERS } from '../../turn/turn-input.js';

/**
 * The request schemas of the chat routes: they validate what callers send and describe it in
 * `GET /openapi.json`. Every message names its field; the parse functions turn the first issue into a
 * VALIDATION error.
 */

export const MAX_TITLE_LENGTH = 500;
export const MAX_LIST_LIMIT = 100;

export function typeName(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
}

function stringField(field: string) {
  return z.string({ error: (issue) => `'${field}' must be a string, got ${typeName(issue.input)}` });
}

function recordId(field: string) {
  return stringField(field).regex(RECORD_ID_PATTERN, `'${field}' must be 1-128 characters of A-Z a-z 0-9 . _ : -`);
}

const title = stringField('title')
  .trim()
  .min(1, "'title' must not be empty")
  .max(MAX_TITLE_LENGTH, `'title' must be at most ${MAX_TITLE_LENGTH} characters`)
  .meta({ description: 'Leading and trailing spaces are removed.' });

/** Any JSON object: the body check that comes before the fields. */
export const jsonObjectSchema = z.record(z.string(), z.unknown(), { error: 'Request body must be a JSON object' });

export const createChatBodySchema = z.object({ title: title.optional() });

export const renameChatBodySchema = z.object({ title });

export const turnBodySchema = z
  .object({
    chatId: recordId('chatId'),
    trigger: z
      .enum(TURN_TRIGGERS, { error: `'trigger' must be one of ${TURN_TRIGGERS.join(', ')}` })
      .nullish()
      .meta({ default: 'submit' }),
    userMessageId: recordId('userMessageId')
      .nullish()
      .meta({ description: "Required for 'submit' and 'edit'; for 'regenerate', default the chat's last user message." }),
    content: stringField('content')
      .refine((value) => value.trim().length > 0, "'content' must not be empty")
      .optional()
      .meta({ description: "Required and not blank for 'submit' and 'edit'; not sent with 'regenerate'." }),
    modelId: z.string().nullish().meta({ description: 'A model of `GET /models` (default: the default model).' }),
  })
  .superRefine((body, context) => {
    if ((body.trigger ?? 'submit') === 'regenerate') {
      if (body.content !== undefined) {
        context.addIssue({ code: 'custom', path: ['content'], message: "'content' must not be sent with trigger 'regenerate'" });
      }
      return;
    }
    if (body.userMessageId == null) {
      context.addIssue({ code: 'custom', path: ['userMessageId'], message: `'userMessageId' must be a string, got ${typeName(body.userMessageId)}` });
    }
    if (body.content === undefined) {
      context.addIssue({ code: 'custom', path: ['content'], message: "'content' must be a string, got undefined" });
    }
  })
  .meta({
    description:
      "`submit` (default) and `edit` carry `userMessageId` and non-blank `content`; `regenerate` carries no `content` and an optional `userMessageId`.",
  });

const LIMIT_MESSAGE = `'limit' must be an integer from 1 to ${MAX_LIST_LIMIT}`;

export const listChatsQuerySchema = z.object({
  limit: z.coerce
    .number({ error: LIMIT_MESSAGE })
    .int(LIMIT_MESSAGE)
    .min(1, LIMIT_MESSAGE)
    .max(MAX_LIST_LIMIT, LIMIT_MESSAGE)
    .optional()
    .meta({ description: 'Page size (default 20).' }),
  cursor: z.string().optional().meta({ description: '`nextCursor` of the previous page.' }),
});

export const usageQuerySchema = z.object({
  from: z.iso.date().optional().meta({ description: 'First UTC day, inclusive (default: 29 days before `to`).' }),
  to: z.iso.date().optional().meta({ description: 'Last UTC day, inclusive (default: today).' }),
});
