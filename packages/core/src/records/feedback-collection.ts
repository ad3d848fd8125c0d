import type { CollectionDefinition } from '@chatwire/storage';

/** Feedback on answers: one row per assistant message (its recordId is the message's), written only by the feedback routes. */
export const AI_FEEDBACK = 'ai-feedback';

export type FeedbackRating = 'up' | 'down';

/**
 * One row per user and assistant message. Its recordId is the assistant message's (`X-Asst-Id`), so a
 * second rating replaces the first. `create: false`: only the server writes it (after its own ownership
 * check); it goes with its message (chat delete, edit, regenerate) in the same transaction.
 */
export const AI_FEEDBACK_SCHEMA: CollectionDefinition = {
  name: AI_FEEDBACK,
  description: 'Ratings of answers (written only through the feedback routes).',
  hidden: true,
  rules: { read: 'own', create: false, update: false, delete: false },
  columns: [
    { name: 'chatId', type: 'string', required: true },
    { name: 'userId', type: 'string', required: true },
    { name: 'messageId', type: 'string', required: true, description: 'The assistant message rated (its X-Asst-Id).' },
    { name: 'rating', type: 'string', required: true, description: "'up' or 'down'." },
    { name: 'comment', type: 'string', maxLength: 2000 },
    { name: 'modelId', type: 'string', required: true, description: 'The model that wrote the answer (copied from its turn row).' },
    { name: 'provider', type: 'string' },
  ],
};

export interface FeedbackData extends Record<string, unknown> {
  chatId: string;
  userId: string;
  messageId: string;
  rating: FeedbackRating;
  comment?: string;
  modelId: string;
  provider?: string;
}
