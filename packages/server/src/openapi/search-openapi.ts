import { z } from 'zod/v4';

/** `GET /search`'s answer, as the route writes it. */
export const SEARCH_RESPONSE = z.object({
  results: z.array(
    z.object({
      chatId: z.string(),
      chatTitle: z.string(),
      messageId: z.string().nullable().describe('The id the client knows the message by; null for a chat-title hit.'),
      role: z.enum(['user', 'assistant']).nullable().describe('null for a chat-title hit.'),
      createdAt: z.string(),
      snippet: z.string().describe('Plain text around the first match (no markup); "…" where the text was cut.'),
      highlights: z
        .array(z.object({ start: z.number().int(), end: z.number().int() }))
        .describe('Matched words as offsets into `snippet` (UTF-16 code units, end exclusive).'),
    }),
  ),
  nextCursor: z.string().nullable(),
});

type JsonObject = Record<string, unknown>;

const query = (name: string, required: boolean, description: string, schema: JsonObject): JsonObject => ({
  name,
  in: 'query',
  required,
  description,
  schema,
});

/** The `/search` path item and its component; `errors` builds the shared error answers of a status list. */
export function searchOpenApi(errors: (...statuses: number[]) => Record<string, JsonObject>, errorRef: JsonObject) {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(SEARCH_RESPONSE, { target: 'draft-2020-12', io: 'output' }) as JsonObject;
  return {
    schemas: { SearchResults: schema },
    path: {
      get: {
        operationId: 'search',
        summary: 'Full-text search over the caller’s messages and chat titles, best match first, then newest',
        parameters: [
          query('q', true, 'Web-search syntax: words in any order, "quoted phrases", -excluded, or. Case and accents are ignored. 1-256 characters.', {
            type: 'string',
            minLength: 1,
            maxLength: 256,
          }),
          query('limit', false, 'Results per page (default 20).', { type: 'integer', minimum: 1, maximum: 50 }),
          query('cursor', false, '`nextCursor` of the previous page of the same search.', { type: 'string' }),
          query('chatId', false, 'Only this chat’s messages (404 when it is not the caller’s).', { type: 'string' }),
        ],
        responses: {
          '200': { description: 'A page of results', content: { 'application/json': { schema: { $ref: '#/components/schemas/SearchResults' } } } },
          ...errors(400, 404),
          '501': { description: 'The store has no full-text search (NOT_IMPLEMENTED)', content: { 'application/json': { schema: errorRef } } },
        },
      },
    },
  };
}
