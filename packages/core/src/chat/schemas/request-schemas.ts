import { LONE_SURROGATE, RECORD_ID_PATTERN } from '@chatwire/storage';
import { z } from 'zod/v4';
import { TURN_TRIGGERS, type TurnTrigger } from '../../turn/turn-input.js';

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

/** A string the stores can keep: no unpaired UTF-16 surrogate (JSON carries one, UTF-8 and PostgreSQL do not). */
function stringField(field: string) {
  return z
    .string({ error: (issue) => `'${field}' must be a string, got ${typeName(issue.input)}` })
    .refine((value) => !LONE_SURROGATE.test(value), `'${field}' must be Unicode text: it holds an unpaired UTF-16 surrogate`);
}

function recordId(field: string) {
  return stringField(field).regex(RECORD_ID_PATTERN, `'${field}' must be 1-128 characters of A-Z a-z 0-9 . _ : -`);
}

const title = stringField('title')
  .trim()
  .min(1, "'title' must not be empty")
  .regex(/\S/, "'title' must not be empty") // never fails after trim; tells the document a blank title is refused
  .max(MAX_TITLE_LENGTH, `'title' must be at most ${MAX_TITLE_LENGTH} characters`)
  .meta({ description: 'Leading and trailing spaces are removed.' });

/** Any JSON object: the body check that comes before the fields. */
export const jsonObjectSchema = z.record(z.string(), z.unknown(), { error: 'Request body must be a JSON object' });

export const createChatBodySchema = z.object({ title: title.optional() });

export const renameChatBodySchema = z.object({ title });

/** What every trigger's body carries. */
const turnBodyBase = z.object({
  chatId: recordId('chatId'),
  modelId: z.string().nullish().meta({ description: 'A model of `GET /models` (default: the default model).' }),
});

/** Attachment ids of `POST /attachments`, in order; a URL (data:, http:) where an id belongs is refused. */
const attachmentIds = z
  .array(
    stringField('attachments[]')
      .refine((value) => !/^[a-z][a-z0-9+.-]*:/i.test(value), "'attachments' holds attachment ids from POST /attachments, never URLs")
      .refine((value) => /^att_[A-Za-z0-9_-]{1,64}$/.test(value), "'attachments' must hold attachment ids (att_...)"),
    { error: "'attachments' must be an array of attachment ids" },
  )
  .max(100, "'attachments' must have at most 100 entries")
  .meta({ description: 'Ids of `POST /attachments`, in order; `content` may then be empty.' });

/** Required and not blank (at least one character that is not white space). */
const turnContent = stringField('content').min(1, "'content' must not be empty").regex(/\S/, "'content' must not be empty");

/**
 * The body of each trigger of `POST /chat`: one branch per trigger, told apart by `trigger` (absent or null
 * is a submit). A new trigger adds its branch here and its name to `TURN_TRIGGERS` (the type check holds
 * the two together); the union below and the document take every branch.
 */
export const turnBodySchemas = {
  submit: turnBodyBase
    .extend({
      trigger: z.literal('submit').nullish().meta({ default: 'submit' }),
      userMessageId: recordId('userMessageId'),
      content: stringField('content'),
      attachments: attachmentIds.nullish(),
    })
    .refine((body) => /\S/.test(body.content) || (body.attachments?.length ?? 0) > 0, { message: "'content' must not be empty", path: ['content'] })
    .meta({
      description: 'A new user message (the default trigger); `content` may be empty when `attachments` has ids.',
      // The refinement above, for the document: non-blank content, or at least one attachment.
      anyOf: [
        { type: 'object', properties: { content: { type: 'string', pattern: '\\S' } } },
        { type: 'object', required: ['attachments'], properties: { attachments: { type: 'array', minItems: 1 } } },
      ],
    }),
  edit: turnBodyBase
    .extend({ trigger: z.literal('edit'), userMessageId: recordId('userMessageId'), content: turnContent })
    .meta({ description: 'Replaces the text of a user message of this chat and answers it again.' }),
  regenerate: turnBodyBase
    .extend({
      trigger: z.literal('regenerate'),
      userMessageId: recordId('userMessageId')
        .nullish()
        .meta({ description: "A user message of this chat (default: the chat's last user message)." }),
      content: z.never({ error: "'content' must not be sent with trigger 'regenerate'" }).optional(),
    })
    .meta({ description: 'Answers a user message again.' }),
  approval: turnBodyBase
    .extend({
      trigger: z.literal('approval'),
      approvals: z
        .array(
          z.object({
            toolCallId: stringField('toolCallId').min(1, "'toolCallId' must not be empty").max(256, "'toolCallId' must be at most 256 characters"),
            approved: z.boolean({ error: "'approved' must be true or false" }),
            reason: stringField('reason').max(1000, "'reason' must be at most 1000 characters").nullish(),
          }),
          { error: "'approvals' must be an array of { toolCallId, approved, reason? }" },
        )
        .min(1, "'approvals' must answer every pending tool call")
        .max(100, "'approvals' must have at most 100 entries"),
      content: z.never({ error: "'content' must not be sent with trigger 'approval'" }).optional(),
    })
    .meta({ description: "Answers the tool calls the chat's last turn waits on (every one, nothing else) and continues that turn." }),
} satisfies Record<TurnTrigger, z.ZodObject>;

type TurnBodyBranch = (typeof turnBodySchemas)[TurnTrigger];

const TRIGGER_MESSAGE = `'trigger' must be one of ${TURN_TRIGGERS.join(', ')}`;

/** The body of `POST /chat`: the branch its `trigger` names, or a VALIDATION error naming `trigger`. */
export const turnBodySchema = z
  .discriminatedUnion('trigger', Object.values(turnBodySchemas) as [TurnBodyBranch, ...TurnBodyBranch[]], {
    error: (issue) => (issue.code === 'invalid_union' ? TRIGGER_MESSAGE : undefined),
  })
  .meta({
    description:
      '`submit` (default) and `edit` carry `userMessageId` and non-blank `content`; `regenerate` carries no `content` and an optional `userMessageId`; `approval` carries `approvals`.',
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
