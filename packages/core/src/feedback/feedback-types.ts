import type { FeedbackRating } from '../records/feedback-collection.js';

/** A rating as the feedback routes return it. */
export interface Feedback {
  chatId: string;
  messageId: string;
  rating: FeedbackRating;
  comment?: string;
  /** The model that wrote the rated answer (copied from its turn row). */
  modelId: string;
  createdAt: string;
  updatedAt: string;
}

/** What `GET /chats/:id` adds to a rated assistant message. */
export interface MessageFeedback {
  rating: FeedbackRating;
  comment?: string;
  updatedAt: string;
}

/** What the `onFeedback` hook is told after a rating was stored (`set`) or removed (`delete`). */
export interface FeedbackEvent {
  action: 'set' | 'delete';
  userId: string;
  chatId: string;
  messageId: string;
  modelId: string;
  provider?: string;
  /** Null for `delete`. */
  rating: FeedbackRating | null;
  comment?: string;
}
