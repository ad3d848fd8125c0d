import { ChatwireError, type Caller, type RecordAccess } from '@chatwire/storage';
import { AI_CHATS, AI_MESSAGES, type MessageData } from '../records/chat-collections.js';
import type { TurnInput } from './turn-input.js';
import { findOwnMessage, newUserMessageRecordId, wireMessageId } from '../records/message-record-id.js';
import { titleFromMessage } from '../records/title-from-message.js';
import { releaseLease } from './release-lease.js';
import { placeTurn } from '../branches/place-turn.js';
import { Turn } from './turn.js';
import type { TurnPlan } from './turn-plan.js';
import type { TurnModel, TurnRuntime } from './turn-runtime.js';
import { planApproval } from '../approval/plan-approval.js';
import { declinePendingCalls } from '../approval/decline-pending-calls.js';
import { admitAttachments } from '../attachments/admit-attachments.js';

export interface TurnRequest {
  caller: Caller;
  input: TurnInput;
  model: TurnModel;
  authToken: string | undefined;
}

/**
 * Admission, before anything is streamed (so every refusal is an HTTP status): the chat is the caller's
 * (or, with `createChatOnFirstTurn`, a submit names a chat id nobody has yet), the chat's lease is taken
 * (one running turn per chat), and the message the trigger names is checked. Returns the turn, holding
 * the lease, ready to run.
 */
export async function admitTurn(rt: TurnRuntime, request: TurnRequest): Promise<Turn> {
  const { caller, input } = request;
  const newChatTitle = await chatToAnswer(rt, caller, input);
  const lease = await rt.store.leases.acquire(`chat:${input.chatId}`, { ttlMs: rt.leaseTtlMs });
  if (!lease) throw new ChatwireError('CHAT_BUSY', 'A turn of this chat is still streaming; retry when it has finished');
  try {
    const plan = await planFor(rt.store.asServer(), caller, input);
    // A tree chat: the new rows' parents come from the active leaf, now that the turn holds the chat.
    if (rt.historyMode === 'tree') {
      Object.assign(plan, await placeTurn(rt.store.asServer(), caller, input.chatId, plan, { newChat: newChatTitle !== null, explicitMessage: input.userMessageId !== undefined }));
    }
    // A new message's attachments: the caller's, within the limits, readable by the model (before any model call).
    if (plan.trigger === 'submit' && input.attachmentIds?.length) plan.attachments = await admitAttachments(rt.attachments!, caller, input.attachmentIds, request.model);
    await rt.limits?.admit(caller);
    // A new message answers a turn still waiting for approvals: its calls are declined.
    if (plan.trigger === 'submit' && newChatTitle === null) await declinePendingCalls(rt.store.asServer(), caller, input.chatId, lease);
    // A continued turn keeps its assistant message: same id, same `X-Asst-Id`.
    const id = plan.trigger === 'approval' ? plan.turnId : crypto.randomUUID();
    return new Turn(
      { id, chatId: input.chatId, caller, plan, model: request.model, lease, authToken: request.authToken, newChatTitle },
      rt,
    );
  } catch (error) {
    // A release that fails is reported and retried (the chat would stay busy for a whole ttl otherwise).
    await releaseLease(lease, rt.leaseTtlMs, (failure) => rt.report(failure, { stage: 'lease', chatId: input.chatId, userId: caller.userId }));
    throw error;
  }
}

/** null when the caller's chat exists; the new chat's title when the turn creates it; else NOT_FOUND. */
async function chatToAnswer(rt: TurnRuntime, caller: Caller, input: TurnInput): Promise<string | null> {
  if (await rt.store.asCaller(caller).find(AI_CHATS, input.chatId)) return null;
  const creates = rt.createChatOnFirstTurn && input.trigger === 'submit' && !(await rt.store.asServer().find(AI_CHATS, input.chatId));
  if (!creates) throw new ChatwireError('NOT_FOUND', 'Chat not found');
  return titleFromMessage(input.content ?? '');
}

/**
 * The trigger's message, by the caller's own ids only (DESIGN.md: message ids are scoped to their owner): a
 * submit's id is a duplicate when the caller already has a message with it, and an edit or regenerate names
 * a user message of this chat of the caller's. Another user's id is, for this caller, an unused one.
 */
async function planFor(server: RecordAccess, caller: Caller, input: TurnInput): Promise<TurnPlan> {
  const { chatId, userMessageId } = input;
  if (input.trigger === 'approval') return planApproval(server, caller, chatId, input.approvals ?? []);
  if (input.trigger === 'submit') {
    const stored = await newUserMessageRecordId(server, caller.userId, userMessageId!);
    if (stored.duplicate) throw new ChatwireError('DUPLICATE_MESSAGE', `Message '${userMessageId}' is already stored`);
    return { trigger: 'submit', userMessageId: userMessageId!, content: input.content!, recordId: stored.recordId };
  }
  const target = userMessageId ?? (await lastUserMessageId(server, chatId));
  const row = await findOwnMessage(server, caller.userId, target);
  if (!row || row.data.chatId !== chatId || row.data.role !== 'user') {
    throw new ChatwireError('MESSAGE_NOT_FOUND', `Message '${target}' is not a user message of this chat`);
  }
  return input.trigger === 'edit'
    ? { trigger: 'edit', userMessageId: target, content: input.content! }
    : { trigger: 'regenerate', userMessageId: target };
}

/** The client's id of the chat's last user message (the chat is the caller's: admission checked it). */
async function lastUserMessageId(server: RecordAccess, chatId: string): Promise<string> {
  const page = await server.query<MessageData>(AI_MESSAGES, {
    filter: { chatId, role: 'user' },
    orderBy: { field: 'createdAt', direction: 'desc' },
    limit: 1,
  });
  const last = page.records[0];
  if (!last) throw new ChatwireError('VALIDATION', 'There is no user message to regenerate', { details: { field: 'userMessageId' } });
  return wireMessageId(last);
}
