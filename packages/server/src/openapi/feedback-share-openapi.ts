import { API_SCHEMAS } from '@chatwire/core';
import { z } from 'zod/v4';

type JsonObject = Record<string, unknown>;
type Errors = (...statuses: number[]) => Record<string, JsonObject>;

const timestamp = z.string().meta({ description: 'ISO 8601' });

/** The answers of the feedback and share routes, as the routes write them. */
const RESPONSES = {
  FeedbackResponse: z.object({
    feedback: z.object({
      chatId: z.string(),
      messageId: z.string(),
      rating: z.enum(['up', 'down']),
      comment: z.string().optional(),
      modelId: z.string().meta({ description: 'The model that wrote the rated answer.' }),
      createdAt: timestamp,
      updatedAt: timestamp,
    }),
  }),
  DeletedFeedback: z.object({ deleted: z.object({ chatId: z.string(), messageId: z.string() }) }),
  ShareCreated: z.object({
    share: z.object({
      shareId: z.string().meta({ description: 'For `DELETE /shares/{shareId}`.' }),
      chatId: z.string(),
      title: z.string(),
      messageCount: z.int(),
      createdAt: timestamp,
      expiresAt: timestamp.nullable().meta({ description: 'null: until revoked or the chat is deleted.' }),
    }),
    url: z.string().meta({ description: 'The link, with its token: shown this once (only its SHA-256 is stored).' }),
  }),
  Revoked: z.object({ revoked: z.literal(true) }),
  SharedChat: z.object({
    share: z.object({ title: z.string(), createdAt: timestamp, expiresAt: timestamp.nullable() }),
    messages: z.array(
      z.object({
        id: z.string(),
        role: z.enum(['user', 'assistant']),
        content: z.string(),
        parts: z.array(
          z.union([z.object({ type: z.literal('text'), text: z.string() }), z.object({ type: z.literal('tool'), toolName: z.string() })]),
        ),
        createdAt: timestamp,
      }),
    ),
  }),
};

function toSchema(schema: z.ZodType, io: 'input' | 'output'): JsonObject {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { target: 'draft-2020-12', io }) as JsonObject;
  return rest;
}

const ref = (name: string): JsonObject => ({ $ref: `#/components/schemas/${name}` });
const json = (description: string, name: string): JsonObject => ({ description, content: { 'application/json': { schema: ref(name) } } });
const body = (name: string, required: boolean): JsonObject => ({ required, content: { 'application/json': { schema: ref(name) } } });
const pathId = (name: string, description: string): JsonObject => ({ name, in: 'path', required: true, description, schema: { type: 'string' } });
/** The paths this module describes. */
export const FEEDBACK_SHARE_PATHS = ['/chats/{id}/messages/{mid}/feedback', '/chats/{id}/shares', '/shares/{shareId}', '/shared/{token}'];

const OPT_IN = 'Only with share links on (`sharing: true`, `CHATWIRE_SHARING=1`); off, this path is 404.';

/** The feedback and share path items and their components; `errors` builds the shared error answers of a status list. */
export function feedbackShareOpenApi(errors: Errors, errorRef: JsonObject) {
  const schemas: Record<string, JsonObject> = {
    FeedbackBody: toSchema(API_SCHEMAS.requests.feedback, 'input'),
    CreateShareBody: toSchema(API_SCHEMAS.requests.createShare, 'input'),
  };
  for (const [name, schema] of Object.entries(RESPONSES)) schemas[name] = toSchema(schema, 'output');
  const chatId = pathId('id', 'The chat’s recordId.');
  const notFound = { description: 'Unknown, revoked, expired or deleted: always this same body', content: { 'application/json': { schema: errorRef } } };
  return {
    schemas,
    paths: {
      '/chats/{id}/messages/{mid}/feedback': {
        parameters: [chatId, pathId('mid', 'The assistant message’s id (`X-Asst-Id`).')],
        put: {
          operationId: 'setFeedback',
          summary: 'Rate an answer (a second rating replaces the first); 400 on a user message',
          requestBody: body('FeedbackBody', true),
          responses: { '200': json('The stored rating', 'FeedbackResponse'), ...errors(400, 408, 413, 404) },
        },
        delete: {
          operationId: 'deleteFeedback',
          summary: 'Remove the caller’s rating of an answer',
          responses: { '200': json('What was removed', 'DeletedFeedback'), ...errors(404) },
        },
      },
      '/chats/{id}/shares': {
        parameters: [chatId],
        post: {
          operationId: 'createShare',
          summary: `A read-only link to a frozen copy of the chat as it is now. ${OPT_IN}`,
          requestBody: body('CreateShareBody', false),
          responses: { '201': json('The share and its link', 'ShareCreated'), ...errors(400, 408, 413, 404) },
        },
      },
      '/shares/{shareId}': {
        parameters: [pathId('shareId', '`share.shareId` of `POST /chats/{id}/shares`.')],
        delete: {
          operationId: 'revokeShare',
          summary: `Revoke a share: its link is 404 at once. ${OPT_IN}`,
          responses: { '200': json('Revoked', 'Revoked'), ...errors(404) },
        },
      },
      '/shared/{token}': {
        parameters: [pathId('token', 'The token of the link (22 characters).')],
        get: {
          operationId: 'readShared',
          summary: `A shared chat, without auth; every answer has \`X-Robots-Tag: noindex\` and \`Cache-Control: no-store\`. ${OPT_IN}`,
          security: [],
          responses: {
            '200': json('The frozen copy (tool calls by name only)', 'SharedChat'),
            '404': notFound,
            '503': { description: 'The store cannot be reached right now (UNAVAILABLE); retry', content: { 'application/json': { schema: errorRef } } },
            '429': {
              description: 'Too many reads from this client address (RATE_LIMITED)',
              headers: { 'Retry-After': { schema: { type: 'integer' }, description: 'Seconds' } },
              content: { 'application/json': { schema: errorRef } },
            },
          },
        },
      },
    },
  };
}
