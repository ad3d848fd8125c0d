import { createHash } from 'node:crypto';
import type { RecordAccess, RecordEnvelope } from '@chatwire/storage';
import { AI_MESSAGES, type MessageData } from './chat-collections.js';

/**
 * Message ids are scoped to their owner (issue #15): two users may send the same `userMessageId` and each
 * gets a message of their own, so a stored id tells nobody else anything.
 *
 * A user row is stored under the client's id, as DESIGN.md's persistence contract says, unless another
 * owner's row already has that recordId (recordIds are unique per store): then it is stored under a recordId
 * derived from its owner and the client's id (`u.` + the SHA-256 of both, base64url: 45 characters of the
 * store's recordId alphabet whatever the two are). Either way the row keeps the client's id in
 * `data.messageId`, and the routes show that id. Assistant rows keep `X-Asst-Id` (server-generated).
 *
 * This is the one module that knows it: every other place turns ids with these functions.
 */

const PREFIX = 'u.';

/** The recordId of the user message `messageId` (the client's `userMessageId`) of `userId`. */
export function userMessageRecordId(userId: string, messageId: string): string {
  return PREFIX + createHash('sha256').update(JSON.stringify([userId, messageId]), 'utf8').digest('base64url');
}

/** The id a client knows a stored message by: its `userMessageId` for a user row, `X-Asst-Id` for an assistant row. */
export function wireMessageId(row: RecordEnvelope<MessageData>): string {
  return typeof row.data.messageId === 'string' ? row.data.messageId : row.recordId;
}

/** A stored message as the routes return it: the client's id as `recordId`, no internal field in `data`. */
export function toWireMessage(row: RecordEnvelope<MessageData>): RecordEnvelope<MessageData> {
  if (row.data.messageId === undefined) return row;
  const { messageId, ...data } = row.data;
  return { ...row, recordId: wireMessageId(row), data: data as MessageData };
}

/**
 * The stored message of `userId` that the client knows as `messageId` (any chat, any role), or null. Another
 * user's message with that id is never returned: for this caller the id is as good as unused.
 */
export async function findOwnMessage(access: RecordAccess, userId: string, messageId: string): Promise<RecordEnvelope<MessageData> | null> {
  return (await lookUp(access, userId, messageId)).own;
}

/**
 * For a submit of `messageId` by `userId`: `duplicate` when the caller already has a message with that id,
 * else the recordId its new row takes (the client's id when no row has it, else the owner-scoped one).
 */
export async function newUserMessageRecordId(access: RecordAccess, userId: string, messageId: string): Promise<{ duplicate: true } | { duplicate: false; recordId: string }> {
  const { own, idTaken } = await lookUp(access, userId, messageId);
  if (own) return { duplicate: true };
  return { duplicate: false, recordId: idTaken ? userMessageRecordId(userId, messageId) : messageId };
}

async function lookUp(access: RecordAccess, userId: string, messageId: string) {
  const [scoped, unscoped] = await Promise.all([
    access.find<MessageData>(AI_MESSAGES, userMessageRecordId(userId, messageId)),
    // A user row stored under the client's id, or an assistant row.
    access.find<MessageData>(AI_MESSAGES, messageId),
  ]);
  const own = [scoped, unscoped].find((row) => row && row.data.userId === userId && wireMessageId(row) === messageId) ?? null;
  return { own, idTaken: unscoped !== null };
}
