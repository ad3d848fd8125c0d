import type { RecordAccess, RecordEnvelope } from '@chatwire/storage';
import { AI_FEEDBACK, type FeedbackData } from '../records/feedback-collection.js';
import type { MessageFeedback } from './feedback-types.js';

const PAGE = 200;

/**
 * The chat's messages with their ratings: a rated message gets `feedback: { rating, comment?, updatedAt }`
 * beside its envelope fields; the others are returned as they are. One query of the chat's feedback rows.
 */
export async function attachFeedback<M extends RecordEnvelope>(access: RecordAccess, chatId: string, messages: M[]): Promise<Array<M & { feedback?: MessageFeedback }>> {
  const byMessage = new Map<string, MessageFeedback>();
  let cursor: string | undefined;
  do {
    const page = await access.query<FeedbackData>(AI_FEEDBACK, { filter: { chatId }, limit: PAGE, ...(cursor ? { cursor } : {}) });
    for (const row of page.records) {
      const { rating, comment } = row.data;
      byMessage.set(row.data.messageId, { rating, ...(comment !== undefined ? { comment } : {}), updatedAt: row.updatedAt });
    }
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  if (byMessage.size === 0) return messages;
  return messages.map((message) => {
    const feedback = byMessage.get(message.recordId);
    return feedback ? { ...message, feedback } : message;
  });
}
