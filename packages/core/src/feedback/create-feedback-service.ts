import { ChatwireError, RECORD_ID_PATTERN, type RecordAccess, type RecordEnvelope, type RecordStore } from '@chatwire/storage';
import { AI_MESSAGES, AI_TURNS, type MessageData } from '../records/chat-collections.js';
import { AI_FEEDBACK, type FeedbackData } from '../records/feedback-collection.js';
import { findOwnMessage } from '../records/message-record-id.js';
import type { TurnTraceIds } from '../turn/turn-observer.js';
import { parseFeedbackInput } from './feedback-input.js';
import type { Feedback, FeedbackEvent } from './feedback-types.js';

export interface FeedbackServiceOptions {
  store: RecordStore;
  /** Told after each stored or removed rating; a throwing or rejecting hook goes to `report`. */
  onFeedback?: ((event: FeedbackEvent) => void | Promise<void>) | undefined;
  /** Writes the telemetry of a rating (the OpenTelemetry observers' `recordFeedback`). */
  recordSpan?: ((event: FeedbackEvent & { trace?: TurnTraceIds }) => void) | undefined;
  report: (error: unknown) => void;
}

export interface FeedbackService {
  /** Stores (or replaces) the caller's rating of an assistant message of a chat the caller owns. */
  set(userId: string, chatId: string, messageId: string, body: unknown): Promise<Feedback>;
  /** Removes the caller's rating; 404 when there is none (a user message never has one). */
  remove(userId: string, chatId: string, messageId: string): Promise<{ chatId: string; messageId: string }>;
}

interface TurnRowData extends Record<string, unknown> {
  chatId: string;
  modelId: string;
  provider?: string;
  trace?: TurnTraceIds;
}

const notFound = (): ChatwireError => new ChatwireError('MESSAGE_NOT_FOUND', 'Message not found');

/**
 * Ratings of answers. The chat's ownership is checked by the caller of these functions. A rating is
 * written in a transaction that first updates the answer's turn row (an empty patch): in SQL drivers this
 * holds the row until commit, so an edit, a regenerate or a chat delete that replaces the answer either
 * runs first (and the rating finds no turn: 404) or waits and deletes the rating with its message.
 */
export function createFeedbackService(options: FeedbackServiceOptions): FeedbackService {
  const { store, report } = options;

  function tell(event: FeedbackEvent, trace: TurnTraceIds | undefined): void {
    try {
      options.recordSpan?.(trace ? { ...event, trace } : event);
    } catch (error) {
      report(error);
    }
    if (!options.onFeedback) return;
    try {
      const result = options.onFeedback(event);
      if (result && typeof result.then === 'function') result.then(undefined, report);
    } catch (error) {
      report(error);
    }
  }

  /** The caller's assistant message `messageId` of `chatId`: 404 when it is not there, 400 for a user message. */
  async function ratedMessage(userId: string, chatId: string, messageId: string): Promise<RecordEnvelope<MessageData>> {
    // An id no message can have is as missing as an unknown one.
    const message = RECORD_ID_PATTERN.test(messageId) ? await findOwnMessage(store.asServer(), userId, messageId) : null;
    if (!message || message.data.chatId !== chatId) throw notFound();
    if (message.data.role !== 'assistant') {
      throw new ChatwireError('VALIDATION', 'Only assistant messages take feedback', { details: { field: 'messageId' } });
    }
    return message;
  }

  return {
    async set(userId, chatId, messageId, body) {
      const input = parseFeedbackInput(body);
      const message = await ratedMessage(userId, chatId, messageId);
      const id = message.recordId;
      const { row, turn } = await store.asServer().transaction(async (tx) => {
        const turn = await holdTurnRow(tx, id);
        if (!turn || turn.data.chatId !== chatId || !(await tx.find(AI_MESSAGES, id))) throw notFound();
        await deleteIfPresent(tx, id);
        const data: FeedbackData = {
          chatId,
          userId,
          messageId: id,
          rating: input.rating,
          ...(input.comment !== undefined ? { comment: input.comment } : {}),
          modelId: turn.data.modelId,
          ...(typeof turn.data.provider === 'string' ? { provider: turn.data.provider } : {}),
        };
        return { row: await tx.create<FeedbackData>(AI_FEEDBACK, data, { recordId: id }), turn };
      });
      const { modelId, provider } = row.data;
      const event: FeedbackEvent = {
        action: 'set',
        userId,
        chatId,
        messageId: id,
        modelId,
        ...(provider !== undefined ? { provider } : {}),
        rating: row.data.rating,
        ...(row.data.comment !== undefined ? { comment: row.data.comment } : {}),
      };
      tell(event, turn.data.trace);
      return toFeedback(row);
    },

    async remove(userId, chatId, messageId) {
      // A rating's recordId is its answer's (an assistant id is the same for its client): no rating, 404.
      if (!RECORD_ID_PATTERN.test(messageId)) throw new ChatwireError('NOT_FOUND', 'Feedback not found');
      const id = messageId;
      const removed = await store.asServer().transaction(async (tx) => {
        const row = await tx.find<FeedbackData>(AI_FEEDBACK, id);
        if (!row || row.data.userId !== userId || row.data.chatId !== chatId) {
          throw new ChatwireError('NOT_FOUND', 'Feedback not found');
        }
        await tx.delete(AI_FEEDBACK, id);
        return row;
      });
      const turn = await store.asServer().find<TurnRowData>(AI_TURNS, id);
      const { modelId, provider } = removed.data;
      tell({ action: 'delete', userId, chatId, messageId: id, modelId, ...(provider !== undefined ? { provider } : {}), rating: null }, turn?.data.trace);
      return { chatId, messageId: id };
    },
  };
}

/** The turn row of answer `id`, updated with an empty patch so SQL drivers hold it until commit; null when gone. */
async function holdTurnRow(tx: RecordAccess, id: string): Promise<RecordEnvelope<TurnRowData> | null> {
  try {
    return await tx.update<TurnRowData>(AI_TURNS, id, {});
  } catch (error) {
    if (ChatwireError.is(error, 'NOT_FOUND')) return null;
    throw error;
  }
}

async function deleteIfPresent(tx: RecordAccess, id: string): Promise<void> {
  try {
    await tx.delete(AI_FEEDBACK, id);
  } catch (error) {
    if (!ChatwireError.is(error, 'NOT_FOUND')) throw error;
  }
}

function toFeedback(row: RecordEnvelope<FeedbackData>): Feedback {
  const { chatId, messageId, rating, comment, modelId } = row.data;
  return { chatId, messageId, rating, ...(comment !== undefined ? { comment } : {}), modelId, createdAt: row.createdAt, updatedAt: row.updatedAt };
}
