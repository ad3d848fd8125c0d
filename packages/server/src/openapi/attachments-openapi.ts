type JsonObject = Record<string, unknown>;

/** The paths this module describes. */
export const ATTACHMENT_PATHS = ['/attachments', '/attachments/{id}', '/attachments/{id}/content'];

const ATTACHMENT: JsonObject = {
  type: 'object',
  required: ['attachmentId', 'mediaType', 'filename', 'size', 'sha256', 'createdAt', 'url'],
  properties: {
    attachmentId: { type: 'string', description: 'For `POST /chat` `attachments`.' },
    mediaType: { type: 'string', enum: ['image/png', 'image/jpeg', 'image/webp', 'image/gif', 'application/pdf', 'text/plain', 'text/markdown', 'text/csv'] },
    filename: { type: 'string', description: 'Display name only (control characters stripped, at most 255 bytes).' },
    size: { type: 'integer' },
    sha256: { type: 'string', description: 'Hex.' },
    createdAt: { type: 'string', description: 'ISO 8601' },
    url: { type: 'string', description: 'Signed content URL (path and query): works without a bearer until it expires (default 15 min); every read signs a fresh one.' },
  },
};

const DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid input (VALIDATION: empty file, malformed multipart)',
  401: 'Missing or invalid bearer token',
  404: 'No such attachment, or another user’s (ATTACHMENT_NOT_FOUND)',
  408: 'No upload bytes arrived for `bodyTimeoutMs` (TIMEOUT)',
  409: 'A stored message uses it (ATTACHMENT_IN_USE): delete its chat instead',
  413: 'Over the per-file limit (ATTACHMENT_TOO_LARGE): reading stops at the limit and the connection is closed',
  415: 'Not PNG, JPEG, WebP, GIF, PDF or UTF-8 text, or the bytes are not the declared type (UNSUPPORTED_MEDIA_TYPE)',
  429: 'Over the per-user stored-bytes quota (QUOTA_EXCEEDED)',
  503: 'The store cannot be reached right now (UNAVAILABLE); retry',
};

/** The attachment path items and their components. */
export function attachmentsOpenApi(errorRef: JsonObject) {
  const errors = (...statuses: number[]): Record<string, JsonObject> =>
    Object.fromEntries(
      [...new Set([...statuses, 401, 503])].sort().map((status) => [String(status), { description: DESCRIPTIONS[status], content: { 'application/json': { schema: errorRef } } }]),
    );
  const one = { description: 'The attachment', content: { 'application/json': { schema: { $ref: '#/components/schemas/AttachmentResponse' } } } };
  const id = { name: 'id', in: 'path', required: true, description: 'The attachmentId.', schema: { type: 'string' } };
  return {
    schemas: { Attachment: ATTACHMENT, AttachmentResponse: { type: 'object', required: ['attachment'], properties: { attachment: { $ref: '#/components/schemas/Attachment' } } } },
    paths: {
      '/attachments': {
        post: {
          operationId: 'uploadAttachment',
          summary: 'Upload a file: the bytes with their Content-Type (and `?filename=`), or multipart/form-data with one `file` part',
          parameters: [{ name: 'filename', in: 'query', required: false, description: 'Display name (raw uploads).', schema: { type: 'string' } }],
          requestBody: {
            required: true,
            content: {
              'image/*': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } },
              'application/pdf': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } },
              'text/plain': { schema: { type: 'string' } },
              'multipart/form-data': { schema: { type: 'object', required: ['file'], properties: { file: { type: 'string', contentMediaType: 'application/octet-stream' } } } },
            },
          },
          responses: { '201': one, ...errors(400, 408, 413, 415, 429) },
        },
      },
      '/attachments/{id}': {
        parameters: [id],
        get: { operationId: 'getAttachment', summary: 'An attachment (with a fresh signed `url`)', responses: { '200': one, ...errors(404) } },
        delete: {
          operationId: 'deleteAttachment',
          summary: 'Delete an attachment no stored message uses',
          responses: {
            '200': { description: 'Deleted', content: { 'application/json': { schema: { type: 'object', required: ['deleted'], properties: { deleted: { const: true } } } } } },
            ...errors(404, 409),
          },
        },
      },
      '/attachments/{id}/content': {
        parameters: [
          id,
          { name: 'expires', in: 'query', required: false, description: 'Of the signed URL (with `sig`, no bearer needed).', schema: { type: 'string' } },
          { name: 'sig', in: 'query', required: false, description: 'Of the signed URL.', schema: { type: 'string' } },
        ],
        get: {
          operationId: 'getAttachmentContent',
          summary: 'The bytes, as their sniffed type (`X-Content-Type-Options: nosniff`)',
          security: [{ bearer: [] }, {}],
          responses: { '200': { description: 'The bytes', content: { '*/*': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } } }, ...errors(404) },
        },
      },
    },
  };
}
