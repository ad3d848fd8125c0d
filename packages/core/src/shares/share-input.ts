import { ChatwireError } from '@chatwire/storage';
import { z } from 'zod/v4';

export const MAX_SHARE_DAYS = 365;

/** The body of `POST /chats/:id/shares` (also described in `GET /openapi.json`). */
export const createShareBodySchema = z.object(
  {
    expiresInDays: z
      .number({ error: "'expiresInDays' must be a number" })
      .int("'expiresInDays' must be a whole number of days")
      .min(1, "'expiresInDays' must be at least 1")
      .max(MAX_SHARE_DAYS, `'expiresInDays' must be at most ${MAX_SHARE_DAYS}`)
      .optional()
      .meta({ description: 'The link stops working this many days from now; absent: until revoked or the chat is deleted.' }),
  },
  { error: 'Request body must be a JSON object' },
);

/** The parsed body (an absent body is `{}`), or a VALIDATION error naming the field. */
export function parseCreateShareInput(body: unknown): { expiresInDays?: number } {
  const result = createShareBodySchema.safeParse(body === undefined ? {} : Array.isArray(body) ? null : body);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    throw new ChatwireError('VALIDATION', issue.message, { details: { field: issue.path.length > 0 ? String(issue.path[0]) : 'body' } });
  }
  return result.data.expiresInDays === undefined ? {} : { expiresInDays: result.data.expiresInDays };
}
