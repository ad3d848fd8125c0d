import { API_SCHEMAS } from '@chatwire/core';
import { z } from 'zod/v4';
import { feedbackShareOpenApi } from './feedback-share-openapi.js';
import { attachmentsOpenApi } from './attachments-openapi.js';
import { searchOpenApi } from './search-openapi.js';
import { branchesOpenApi } from './branches-openapi.js';
import { toolsOpenApi } from './tools-openapi.js';

/**
 * The OpenAPI 3.1 document of the chat routes, converted from the zod schemas that validate the requests
 * (`z.toJSONSchema`, JSON Schema 2020-12, the dialect of OpenAPI 3.1). Request schemas are described as
 * callers send them (`io: 'input'`), responses as the server writes them.
 */

type JsonObject = Record<string, unknown>;
const COMPONENT = '#/components/schemas/';
const ref = (name: string): JsonObject => ({ $ref: `${COMPONENT}${name}` });

function componentSchemas(schemas: Record<string, z.ZodType>, io: 'input' | 'output'): Record<string, JsonObject> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(schemas)) registry.add(schema, { id });
  const { schemas: converted } = z.toJSONSchema(registry, { target: 'draft-2020-12', io, uri: (id) => `${COMPONENT}${id}` });
  const out: Record<string, JsonObject> = {};
  for (const [id, schema] of Object.entries(converted)) {
    const { $schema: _dialect, $id: _id, ...rest } = schema as JsonObject;
    out[id] = rest;
  }
  return out;
}

/** The `POST /chat` body of each trigger, by component name (`submit` → `SubmitTurnBody`). */
function turnBranches(byTrigger: Record<string, z.ZodType>): Record<string, z.ZodType> {
  return Object.fromEntries(Object.entries(byTrigger).map(([trigger, schema]) => [`${trigger[0]!.toUpperCase()}${trigger.slice(1)}TurnBody`, schema]));
}

/** Query parameters from an object schema's properties. */
function queryParameters(component: JsonObject): JsonObject[] {
  const properties = (component.properties ?? {}) as Record<string, JsonObject>;
  const required = new Set((component.required ?? []) as string[]);
  return Object.entries(properties).map(([name, schema]) => {
    const { description, ...rest } = schema;
    return { name, in: 'query', required: required.has(name), ...(description ? { description } : {}), schema: rest };
  });
}

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid input (VALIDATION names the field; MODEL_NOT_ALLOWED)',
  401: 'Missing or invalid bearer token',
  404: 'No such chat (another user’s chat included) or message',
  408: 'The request body arrived too slowly',
  409: 'The message is already stored, or a turn of this chat is still running (CHAT_BUSY)',
  413: 'Request body too large',
  429: 'Over a limit (RATE_LIMITED, QUOTA_EXCEEDED); `Retry-After` and `retryAfter` say when to retry',
  503: 'The store (or the limits’ Redis) cannot be reached right now (UNAVAILABLE); retry',
};

/** The error answers of an authenticated route: the given statuses, plus 401 (the bearer token) and 503 (the store). */
function errors(...statuses: number[]): Record<string, JsonObject> {
  return errorResponses([...statuses, 401, 503]);
}

/** What a route that reads a JSON body adds: 400 (not JSON, invalid), 408 (too slow) and 413 (too large). */
const BODY_ERRORS = [400, 408, 413];

function errorResponses(statuses: number[]): Record<string, JsonObject> {
  const out: Record<string, JsonObject> = {};
  for (const status of [...new Set(statuses)].sort()) {
    out[String(status)] = {
      description: ERROR_DESCRIPTIONS[status],
      ...(status === 429 ? { headers: { 'Retry-After': { schema: { type: 'integer' }, description: 'Seconds' } } } : {}),
      content: { 'application/json': { schema: ref('Error') } },
    };
  }
  return out;
}

function json(description: string, schema: JsonObject): JsonObject {
  return { description, content: { 'application/json': { schema } } };
}

function jsonBody(name: string, required = true): JsonObject {
  return { required, content: { 'application/json': { schema: ref(name) } } };
}

const stream = (description: string): JsonObject => ({
  description,
  headers: {
    'X-Asst-Id': { description: 'Id of the assistant message; the first chunk is `start` with this `messageId`.', schema: { type: 'string' } },
    'x-vercel-ai-ui-message-stream': { schema: { type: 'string', const: 'v1' } },
  },
  content: {
    'text/event-stream': {
      schema: { type: 'string', description: 'AI SDK v5 UI message stream: `data: <json chunk>` events, ending with `data: [DONE]`.' },
    },
  },
});

const chatId = { name: 'id', in: 'path', required: true, description: 'The chat’s recordId.', schema: { type: 'string' } };

export interface OpenApiDocumentOptions {
  /** Where the routes are mounted (the `servers` entry). */
  basePath: string;
  /** `info.version` (default the package's version line). */
  version?: string;
}

export function buildOpenApiDocument(options: OpenApiDocumentOptions): JsonObject {
  const { requests, responses, shared } = API_SCHEMAS;
  const inputs = componentSchemas(
    {
      CreateChatBody: requests.createChat,
      RenameChatBody: requests.renameChat,
      TurnBody: requests.turn,
      ...turnBranches(requests.turnByTrigger),
      ListChatsQuery: requests.listChats,
      UsageQuery: requests.usage,
    },
    'input',
  );
  const outputs = componentSchemas(
    {
      ...shared,
      ChatResponse: responses.chat,
      ChatList: responses.chatList,
      ChatWithMessages: responses.chatWithMessages,
      DeletedChat: responses.deleted,
      Stopped: responses.stopped,
      ModelList: responses.models,
      Usage: responses.usage,
      Error: responses.error,
    },
    'output',
  );
  const { ListChatsQuery, UsageQuery, ...bodies } = inputs;
  const feedbackShares = feedbackShareOpenApi(errors, ref('Error'));
  const search = searchOpenApi(errors, ref('Error'));
  const tools = toolsOpenApi(errorResponses([401]));
  const attachments = attachmentsOpenApi(ref('Error'));
  const branches = branchesOpenApi(errors, chatId, ref('ChatWithMessages'));
  return {
    openapi: '3.1.0',
    info: {
      title: 'chatwire',
      version: options.version ?? '0.1.0',
      description:
        'Chat routes: chats, turns streamed as the AI SDK UI message stream, models and usage. Another method on a path of this document is 405 `METHOD_NOT_ALLOWED` with `Allow`; a path under the base path that is none of these is 404.',
    },
    servers: [{ url: options.basePath }],
    security: [{ bearer: [] }],
    paths: {
      '/chats': {
        get: {
          operationId: 'listChats',
          summary: 'The caller’s chats, newest first',
          parameters: queryParameters(ListChatsQuery!),
          responses: { '200': json('A page of chats', ref('ChatList')), ...errors(400) },
        },
        post: {
          operationId: 'createChat',
          summary: 'Create a chat (untitled: "New chat")',
          requestBody: jsonBody('CreateChatBody', false),
          responses: { '201': json('The new chat', ref('ChatResponse')), ...errors(...BODY_ERRORS) },
        },
      },
      '/chats/{id}': {
        parameters: [chatId],
        get: {
          operationId: 'getChat',
          summary: 'A chat and its messages in order',
          responses: { '200': json('The chat and its messages', ref('ChatWithMessages')), ...errors(404) },
        },
        patch: {
          operationId: 'renameChat',
          summary: 'Rename a chat',
          requestBody: jsonBody('RenameChatBody'),
          responses: { '200': json('The renamed chat', ref('ChatResponse')), ...errors(...BODY_ERRORS, 404) },
        },
        delete: {
          operationId: 'deleteChat',
          summary: 'Delete a chat with its messages and turn rows',
          responses: { '200': json('What was deleted', ref('DeletedChat')), ...errors(404) },
        },
      },
      '/chats/{id}/stop': {
        parameters: [chatId],
        post: {
          operationId: 'stopTurn',
          summary: 'Stop the chat’s running turn, keeping its partial answer',
          responses: { '200': json('Whether a turn was stopped', ref('Stopped')), ...errors(404) },
        },
      },
      '/chats/{id}/stream': {
        parameters: [chatId],
        get: {
          operationId: 'resumeTurn',
          summary: 'The chat’s running turn from its first chunk',
          responses: { '200': stream('The running turn’s stream'), '204': { description: 'No turn is running' }, ...errors(404) },
        },
      },
      '/chat': {
        post: {
          operationId: 'streamTurn',
          summary: 'Run a turn (submit, edit or regenerate) and stream the answer',
          requestBody: jsonBody('TurnBody'),
          responses: { '200': stream('The turn’s stream'), ...errors(...BODY_ERRORS, 404, 409, 429) },
        },
      },
      '/models': {
        get: {
          operationId: 'listModels',
          summary: 'The models this caller may use',
          responses: { '200': json('Models', ref('ModelList')), ...errorResponses([401]) },
        },
      },
      '/usage': {
        get: {
          operationId: 'usage',
          summary: 'The caller’s token sums per UTC day and model',
          parameters: queryParameters(UsageQuery!),
          responses: { '200': json('Usage rows', ref('Usage')), ...errors(400) },
        },
      },
      '/search': search.path,
      '/tools': tools.path,
      ...feedbackShares.paths,
      ...attachments.paths,
      ...branches.paths,
      '/openapi.json': {
        get: {
          operationId: 'openApiDocument',
          summary: 'This document',
          security: [],
          responses: { '200': json('An OpenAPI 3.1 document', { type: 'object' }) },
        },
      },
    },
    components: {
      schemas: { ...bodies, ...outputs, ...feedbackShares.schemas, ...search.schemas, ...tools.schemas, ...attachments.schemas, ...branches.schemas },
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
    },
  };
}
