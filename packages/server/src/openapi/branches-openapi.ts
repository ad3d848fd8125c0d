type JsonObject = Record<string, unknown>;

/** The paths this module describes. */
export const BRANCH_PATHS = ['/chats/{id}/active'];

/** `branch` of a message of a tree chat's active path. */
export const BRANCH_POSITION: JsonObject = {
  type: 'object',
  required: ['parentId', 'index', 'count', 'prevId', 'nextId'],
  description: 'Tree history: the message’s place among its siblings (the messages with the same parent), by the ids clients know.',
  properties: {
    parentId: { type: ['string', 'null'], description: 'null for a first message.' },
    index: { type: 'integer', minimum: 0, description: 'From 0, in the order the siblings were created.' },
    count: { type: 'integer', minimum: 1 },
    prevId: { type: ['string', 'null'] },
    nextId: { type: ['string', 'null'] },
  },
};

/**
 * `POST /chats/{id}/active` (tree history); `errors` builds the shared error answers of a status list and
 * `chatWithMessages` is the `GET /chats/{id}` answer it shares.
 */
export function branchesOpenApi(errors: (...statuses: number[]) => Record<string, JsonObject>, chatId: JsonObject, chatWithMessages: JsonObject) {
  return {
    schemas: { BranchPosition: BRANCH_POSITION },
    paths: {
      '/chats/{id}/active': {
        parameters: [chatId],
        post: {
          operationId: 'switchBranch',
          summary: 'Tree history: make the newest leaf under a message the chat’s active path',
          description:
            'One transaction under the chat’s lease: 409 CHAT_BUSY while a turn streams. Each message of the answer adds `branch` (BranchPosition). With `history: "linear"` the route answers 404.',
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: { type: 'object', required: ['messageId'], properties: { messageId: { type: 'string', minLength: 1 } } },
              },
            },
          },
          responses: {
            '200': { description: 'The chat and its new active path', content: { 'application/json': { schema: chatWithMessages } } },
            ...errors(400, 404, 408, 409, 413),
          },
        },
      },
    },
  };
}
