import type { LanguageModelUsage } from 'ai';
import type { RecordAccess, RecordData } from '@chatwire/storage';
import { addToUsageLedger, tokens } from '../limits/add-to-usage-ledger.js';
import { utcDate } from '../limits/utc-day.js';
import { addUsage } from '../model-loop/add-usage.js';
import { AI_MESSAGES, AI_TURNS } from '../records/chat-collections.js';
import type { PreparedPrompt } from '../turn/prepare-prompt.js';
import type { SaveResult, TurnRecord } from '../turn/save-turn.js';
import type { Turn } from '../turn/turn.js';

type StoredUsage = { input?: number | null; output?: number | null; total?: number | null; reasoning?: number | null; cached?: number | null };

/**
 * The rows of a turn continued after approvals, inside the save's transaction (lease and chat checked): its
 * assistant row gets the whole answer and the new status, its turn row the whole turn's usage and steps (and
 * the next pending step, when it paused again), and the ledger this continuation's tokens (no second turn).
 * A continuation stopped before its calls ran writes nothing: the calls stay pending.
 */
export async function writeContinuedTurn(tx: RecordAccess, turn: Turn, prompt: PreparedPrompt, record: TurnRecord): Promise<SaveResult> {
  const row = await tx.find<{ usage?: StoredUsage; durationMs?: number; modelId: string; userId: string; pendingApproval?: unknown }>(AI_TURNS, turn.id);
  if (!row) return 'chat-deleted';
  // Still pending: the continuation ended before its calls ran (stopped), so the turn stays as it was.
  if (row.data.pendingApproval != null) return 'stored';
  const { answer } = turn;
  await tx.update(AI_MESSAGES, turn.id, json({ content: answer.text(), parts: answer.parts, status: record.status }));
  const usage = addUsage(fromStored(row.data.usage), record.usage);
  await tx.update(
    AI_TURNS,
    turn.id,
    json({
      finishReason: record.finishReason,
      usage: {
        input: usage.inputTokens ?? null,
        output: usage.outputTokens ?? null,
        total: usage.totalTokens ?? null,
        reasoning: usage.reasoningTokens ?? null,
        cached: usage.cachedInputTokens ?? null,
      },
      steps: record.steps,
      toolCalls: answer.toolCalls(),
      durationMs: (row.data.durationMs ?? 0) + (Date.now() - turn.startedAt),
      pendingApproval: record.pending ? { ...record.pending, usage } : null,
      ...(prompt.summary ? { summary: prompt.summary } : {}),
    }),
  );
  const amounts = { turns: 0, inputTokens: tokens(record.usage.inputTokens), outputTokens: tokens(record.usage.outputTokens), totalTokens: tokens(record.usage.totalTokens) };
  await addToUsageLedger(tx, { userId: row.data.userId, modelId: row.data.modelId, date: utcDate(Date.now()) }, amounts, `${turn.id}.${turn.startedAt}`);
  return 'stored';
}

function fromStored(usage: StoredUsage | undefined): LanguageModelUsage {
  const n = (value: number | null | undefined) => (typeof value === 'number' ? value : undefined);
  return {
    inputTokens: n(usage?.input),
    outputTokens: n(usage?.output),
    totalTokens: n(usage?.total),
    reasoningTokens: n(usage?.reasoning),
    cachedInputTokens: n(usage?.cached),
  };
}

function json<T extends RecordData>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
