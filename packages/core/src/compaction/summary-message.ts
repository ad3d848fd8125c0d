import type { ModelMessage, UserModelMessage } from 'ai';

/** First line of the summary message. */
export const SUMMARY_MESSAGE_PREFIX = 'Summary of the earlier conversation:\n';

/** The message that stands for every summarized entry: a user message placed first in the prompt. */
export function createSummaryMessage(text: string): UserModelMessage {
  return { role: 'user', content: `${SUMMARY_MESSAGE_PREFIX}${text}` };
}

/** True for a message made by `createSummaryMessage` (recognised by its prefix). */
export function isSummaryMessage(message: ModelMessage | undefined): boolean {
  return (
    message !== undefined &&
    message.role === 'user' &&
    typeof message.content === 'string' &&
    message.content.startsWith(SUMMARY_MESSAGE_PREFIX)
  );
}
