import type { ChatClient, MessageRecord } from '@chatwire/client';
import type { Rating } from './render-feedback.js';

/**
 * A click on a thumb: the answer gets that rating, or loses it when it already had it (a second click on a
 * pressed thumb takes it back). Returns the stored message as it is now.
 */
export async function rateAnswer(client: ChatClient, chatId: string, message: MessageRecord, rating: Rating): Promise<MessageRecord> {
  if (message.feedback?.rating === rating) {
    await client.deleteFeedback(chatId, message.recordId);
    const { feedback: _removed, ...rest } = message;
    return rest;
  }
  const stored = await client.setFeedback(chatId, message.recordId, { rating });
  return { ...message, feedback: { rating: stored.rating, updatedAt: stored.updatedAt } };
}
