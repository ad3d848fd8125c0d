import { ChatwireError } from '@chatwire/storage';
import { z } from 'zod/v4';
import type { FeedbackRating } from '../records/feedback-collection.js';

export const MAX_FEEDBACK_COMMENT = 2000;

const typeName = (value: unknown): string => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);

/** The body of `PUT /chats/:id/messages/:mid/feedback` (also described in `GET /openapi.json`). */
export const feedbackBodySchema = z.object(
  {
    rating: z.enum(['up', 'down'], { error: (issue) => issue.input === undefined ? "'rating' is required: 'up' or 'down'" : `'rating' must be 'up' or 'down', got ${typeof issue.input === 'string' ? `'${issue.input.slice(0, 40)}'` : typeName(issue.input)}` }),
    comment: z
      .string({ error: (issue) => `'comment' must be a string, got ${typeName(issue.input)}` })
      .trim() // before the length check: the limit is on the comment stored
      .max(MAX_FEEDBACK_COMMENT, `'comment' must be at most ${MAX_FEEDBACK_COMMENT} characters`)
      .optional()
      .meta({ description: 'Free text kept with the rating, leading and trailing spaces removed; an empty or absent comment stores none.' }),
  },
  { error: 'Request body must be a JSON object' },
);

export interface FeedbackInput {
  rating: FeedbackRating;
  comment?: string;
}

/** The parsed body, or a VALIDATION error naming the field. */
export function parseFeedbackInput(body: unknown): FeedbackInput {
  const result = feedbackBodySchema.safeParse(Array.isArray(body) ? null : body);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const field = issue.path.length > 0 ? String(issue.path[0]) : 'body';
    throw new ChatwireError('VALIDATION', issue.message, { details: { field } });
  }
  const comment = result.data.comment;
  return { rating: result.data.rating, ...(comment ? { comment } : {}) };
}
