import type { LanguageModelUsage } from 'ai';
import { ChatwireError, type RecordAccess, type RecordData } from '@chatwire/storage';
import { addTurnToUsageLedger, type TurnRowUsage } from '../limits/add-to-usage-ledger.js';
import { AI_CHATS, AI_MESSAGES, AI_TURNS } from '../records/chat-collections.js';
import { AI_FEEDBACK } from '../records/feedback-collection.js';
import type { PreparedPrompt } from './prepare-prompt.js';
import type { Turn } from './turn.js';
import { assistantParent, writeBranchUser } from '../branches/write-branch-rows.js';
import type { PendingApproval } from '../approval/approval-types.js';
import { writeContinuedTurn } from '../approval/write-continued-turn.js';
import { markAttached } from '../attachments/mark-attached.js';

/** How the model part of a stored turn ended: `complete`, `stopped` by the stop route, or `awaiting-approval`. */
export type AnswerStatus = 'complete' | 'stopped' | 'awaiting-approval';

export interface TurnRecord {
  status: AnswerStatus;
  finishReason: string;
  usage: LanguageModelUsage;
  steps: number;
  /** The step waiting for the user's approval (status `awaiting-approval`). */
  pending?: PendingApproval;
}

export type SaveResult = 'stored' | 'chat-deleted' | 'lost-lease';

const ATTEMPTS = 2;

/**
 * Stores a turn in one transaction, on every driver: the chat is touched (its `updatedAt`, never its title,
 * so a concurrent rename survives; in SQL drivers this also locks the chat row against a concurrent delete),
 * the lease is checked (a turn that lost its chat to another turn stores nothing), then the user row (new,
 * or the edited one), the messages an edit or regenerate replaces are deleted with their turn rows, and
 * the assistant and turn rows are written, and the turn's tokens are added to the user's usage ledger
 * (last, see `addToUsageLedger`). Inserts are idempotent by recordId, so the one retry of a failed
 * transaction never duplicates a row nor counts the turn twice. Throws when both attempts fail.
 */
export async function saveTurn(access: RecordAccess, turn: Turn, prompt: PreparedPrompt, record: TurnRecord): Promise<SaveResult> {
  let result: SaveResult = 'stored';
  let lastError: unknown;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    try {
      await access.transaction(async (tx) => {
        result = await writeRows(tx, turn, prompt, record);
      });
      return result;
    } catch (error) {
      lastError = error;
    }
  }
  throw lastError;
}

async function writeRows(tx: RecordAccess, turn: Turn, prompt: PreparedPrompt, record: TurnRecord): Promise<SaveResult> {
  const { chatId, plan } = turn;
  const userId = turn.caller.userId;
  // First, before anything is written: on SQL drivers this locks the lease until commit, so the rows are
  // written while this turn still holds its chat, and a turn that lost it writes nothing at all.
  if (!(await tx.holdsLease(turn.lease))) return 'lost-lease';
  if (turn.newChatTitle !== null) {
    await tx.create(AI_CHATS, { userId, title: turn.newChatTitle, titleSource: 'default' }, { recordId: chatId });
  } else if (!(await touchChat(tx, chatId))) {
    return 'chat-deleted';
  }

  // A turn continued after approvals rewrites its own two rows.
  if (plan.trigger === 'approval') return writeContinuedTurn(tx, turn, prompt, record);
  const files = prompt.userFiles ?? [];
  const userParts = [...(prompt.userContent.length > 0 || files.length === 0 ? [{ type: 'text', text: prompt.userContent }] : []), ...files];
  // A tree chat adds rows and deletes nothing (the replaced ids are then empty).
  if (plan.branch) await writeBranchUser(tx, turn, plan.branch, prompt.userContent, userParts);
  else if (plan.trigger === 'submit') {
    const data = { chatId, userId, role: 'user', content: plan.content, parts: userParts, messageId: plan.userMessageId };
    await tx.create(AI_MESSAGES, data, { recordId: prompt.userRecordId });
  } else if (plan.trigger === 'edit') {
    await tx.update(AI_MESSAGES, prompt.userRecordId, { content: plan.content, parts: userParts });
  }
  // A submit's attachments now belong to its user row (same transaction).
  if (plan.trigger === 'submit' && plan.attachments?.length) await markAttached(tx, plan.attachments, chatId, prompt.userRecordId);
  for (const id of prompt.replacedIds) {
    await deleteIfPresent(tx, AI_MESSAGES, id);
    await deleteIfPresent(tx, AI_TURNS, id);
    // Feedback goes with its message (its recordId is the message's). After the turn row: a rating being
    // set holds that row, so this delete sees it once it commits.
    await deleteIfPresent(tx, AI_FEEDBACK, id);
  }
  const { answer } = turn;
  await tx.create(
    AI_MESSAGES,
    json({ chatId, userId, role: 'assistant', content: answer.text(), parts: answer.parts, status: record.status, ...assistantParent(plan.branch) }),
    { recordId: turn.id },
  );
  const turnRow = await tx.create<TurnRowUsage>(
    AI_TURNS,
    json({
      chatId,
      userId,
      userMessageId: plan.branch?.user?.wireId ?? plan.userMessageId,
      assistantMessageId: turn.id,
      trigger: plan.trigger,
      modelId: turn.model.modelId,
      provider: turn.model.provider,
      finishReason: record.finishReason,
      usage: {
        input: record.usage.inputTokens ?? null,
        output: record.usage.outputTokens ?? null,
        total: record.usage.totalTokens ?? null,
        reasoning: record.usage.reasoningTokens ?? null,
        cached: record.usage.cachedInputTokens ?? null,
      },
      steps: record.steps,
      toolCalls: answer.toolCalls(),
      durationMs: Date.now() - turn.startedAt,
      compaction: prompt.compaction,
      ...(turn.toolSourceErrors.length > 0 ? { toolSourceErrors: turn.toolSourceErrors } : {}),
      ...(prompt.summary ? { summary: prompt.summary } : {}),
      ...(record.pending ? { pendingApproval: { ...record.pending, usage: record.usage } } : {}),
      trace: turn.observer.traceIds?.(),
      usageCounted: true,
    }),
    { recordId: turn.id },
  );
  await addTurnToUsageLedger(tx, turnRow);
  return 'stored';
}

/** Bumps the chat's `updatedAt` without rewriting any field; false when the chat is gone. */
async function touchChat(tx: RecordAccess, chatId: string): Promise<boolean> {
  try {
    await tx.update(AI_CHATS, chatId, {});
    return true;
  } catch (error) {
    if (ChatwireError.is(error, 'NOT_FOUND')) return false;
    throw error;
  }
}

async function deleteIfPresent(tx: RecordAccess, collection: string, id: string): Promise<void> {
  try {
    await tx.delete(collection, id);
  } catch (error) {
    if (!ChatwireError.is(error, 'NOT_FOUND')) throw error;
  }
}

/** Plain JSON (drops undefined fields) so retried inserts compare equal and every driver stores the same. */
function json<T extends RecordData>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

