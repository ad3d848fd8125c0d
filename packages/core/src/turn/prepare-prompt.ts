import type { ModelMessage } from 'ai';
import { ChatwireError, type RecordAccess, type RecordEnvelope } from '@chatwire/storage';
import { AI_TURNS, type MessageData } from '../records/chat-collections.js';
import { compactHistory } from '../compaction/index.js';
import type { CompactionReport, ConversationSummary } from '../compaction/compaction-types.js';
import { historyEntries, loadChatMessages } from '../prompt/load-history.js';
import { wireMessageId } from '../records/message-record-id.js';
import { takeBranchPath } from '../branches/load-chat-tree.js';
import type { Turn } from './turn.js';
import type { TurnRuntime } from './turn-runtime.js';
import type { FilePartData } from '../records/attachment-collection.js';
import { fileParts, userMessages } from '../attachments/file-reference.js';
import { withPromptFiles } from '../attachments/with-prompt-files.js';

/** What the model is sent, and what the turn's settle needs to know about the history it answered. */
export interface PreparedPrompt {
  /**
   * The history the model answers, compacted. The first call hands over the array built here; a later
   * call (a tool step) rebuilds it from the store with the same summary and no summarizer, which gives
   * the same messages (the turn holds its chat's lease, so the stored history cannot change meanwhile).
   * A turn thus holds no copy of its history while the model streams.
   */
  history(): Promise<ModelMessage[]>;
  /** A summary this turn produced (stored in its turn row, reused by later turns). */
  summary: ConversationSummary | null;
  compaction: CompactionReport;
  /** The text of the user message this turn answers. */
  userContent: string;
  /** The recordId of that user message: the new row of a submit, the stored row of an edit or regenerate. */
  userRecordId: string;
  /** Stored messages an edit or regenerate replaces (every message after its user message), in order. */
  replacedIds: string[];
  /** The file parts of that user message (a submit's new attachments, or the stored row's). */
  userFiles?: FilePartData[];
}

const SUMMARY_CANDIDATES = 20;

/**
 * Phase one of a turn: the history the model answers, compacted to the context budget. A submit answers
 * every stored message plus the new one; an edit the messages before the edited one plus its new text; a
 * regenerate the messages up to and including its user message; a turn continued after approvals the same
 * as a regenerate (its earlier steps come from the paused step it stored).
 */
export async function preparePrompt(turn: Turn, rt: TurnRuntime): Promise<PreparedPrompt> {
  const server = rt.store.asServer();
  const rows = await storedHistory(turn, rt);
  const source = promptSource(turn, rows);
  // A turn continued after approvals goes on in its stored assistant message.
  if (turn.plan.trigger === 'approval') turn.answer.restore(rows.find((row) => row.recordId === turn.id)?.data.parts ?? []);
  const cachedSummary = source.keptIds.size === 0 ? null : await usableSummary(server, turn.chatId, source.keptIds, turn.plan.branch !== undefined);
  const prepared = await compactHistory(source.entries, {
    config: rt.compaction,
    cachedSummary,
    summarize: rt.summarizer(turn.authToken),
    abortSignal: turn.signal,
  });
  return {
    history: withPromptFiles(historyOnce(turn, rt, prepared.messages, prepared.summary ?? cachedSummary), turn, rt),
    summary: prepared.summary,
    compaction: prepared.report,
    userContent: source.userContent,
    userRecordId: source.userRecordId,
    replacedIds: source.replacedIds,
    userFiles: source.userFiles,
  };
}

/** `PreparedPrompt.history`: `first` once, then rebuilt. Its own function, so it holds nothing else. */
function historyOnce(turn: Turn, rt: TurnRuntime, first: ModelMessage[], summary: ConversationSummary | null): () => Promise<ModelMessage[]> {
  let handOver: ModelMessage[] | null = first;
  return async () => {
    if (handOver) {
      const messages = handOver;
      handOver = null;
      return messages;
    }
    const { entries } = promptSource(turn, await storedHistory(turn, rt));
    return (await compactHistory(entries, { config: rt.compaction, cachedSummary: summary, summarize: null, abortSignal: turn.signal })).messages;
  };
}

async function storedHistory(turn: Turn, rt: TurnRuntime): Promise<RecordEnvelope<MessageData>[]> {
  // A tree chat answers one path: the rows down to the turn's place, never a sibling branch.
  if (turn.plan.branch) return takeBranchPath(rt.store.asServer(), turn.chatId, turn.plan.branch);
  return turn.newChatTitle === null ? loadChatMessages(rt.store.asServer(), turn.chatId) : [];
}

/** What a turn answers, from its chat's stored messages and its plan. */
function promptSource(turn: Turn, rows: RecordEnvelope<MessageData>[]) {
  const { plan } = turn;
  let kept = rows;
  let replaced: RecordEnvelope<MessageData>[] = [];
  let userContent: string;
  let userRecordId: string;
  let userFiles = plan.attachments ?? [];
  if (plan.trigger === 'submit') {
    userContent = plan.content;
    userRecordId = plan.recordId;
  } else {
    const at = rows.findIndex((row) => wireMessageId(row) === plan.userMessageId && row.data.role === 'user');
    if (at < 0) throw new ChatwireError('MESSAGE_NOT_FOUND', `Message '${plan.userMessageId}' is not a user message of this chat`);
    kept = rows.slice(0, at);
    // A continued turn keeps its own answer (it is rewritten when the turn is stored).
    replaced = plan.trigger === 'approval' ? [] : rows.slice(at + 1);
    userContent = plan.trigger === 'edit' ? plan.content : rows[at]!.data.content;
    userRecordId = rows[at]!.recordId;
    userFiles = fileParts(rows[at]!.data.parts);
  }
  return {
    entries: [...historyEntries(kept), { id: plan.userMessageId, messages: userMessages(userContent, userFiles) }],
    keptIds: new Set(kept.map(wireMessageId)),
    userContent,
    userRecordId,
    replacedIds: replaced.map((row) => row.recordId),
    userFiles,
  };
}

/**
 * The newest summary an earlier turn produced that covers only messages this turn keeps: a summary of
 * messages an edit or regenerate replaces is never used again.
 */
async function usableSummary(access: RecordAccess, chatId: string, keptIds: ReadonlySet<string>, tree = false): Promise<ConversationSummary | null> {
  const page = await access.query(AI_TURNS, {
    filter: { chatId, summary: { exists: true } },
    orderBy: { field: 'createdAt', direction: 'desc' },
    limit: SUMMARY_CANDIDATES,
  });
  for (const row of page.records) {
    const summary = row.data.summary as ConversationSummary | undefined;
    if (!summary || typeof summary.text !== 'string' || typeof summary.throughId !== 'string') continue;
    // In a tree no message is rewritten: a summary through a message of this path covers this path's prefix.
    if ((tree || keptIds.has(row.recordId)) && keptIds.has(summary.throughId)) return summary;
  }
  return null;
}
