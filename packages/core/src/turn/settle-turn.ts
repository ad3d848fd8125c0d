import type { UIMessageChunk } from 'ai';
import { ChatwireError } from '@chatwire/storage';
import { safeErrorText } from './error-text.js';
import type { PreparedPrompt } from './prepare-prompt.js';
import { saveTurn, type TurnRecord } from './save-turn.js';
import type { StreamOutcome } from './stream-model.js';
import type { InterruptKind, TurnEnding } from './turn-ending.js';
import type { Turn } from './turn.js';
import type { TurnRuntime } from './turn-runtime.js';
import { TURN_TEXTS } from './turn-texts.js';

/**
 * Phase three of a turn: store it or discard it, and tell the client which. A finished answer is stored,
 * then `finish` is sent (so a client that saw `finish` can rely on the stored history); a stopped one is
 * closed (`text-end` for open text), stored with `status: "stopped"`, then finished. A disconnect ends
 * with `abort`; a failure, timeout or lost lease with an `error` chunk. Only completed and stopped turns
 * write anything. A turn whose tool calls wait for the user's approval is stored with `status:
 * "awaiting-approval"` and its pending step, then finished (`finishReason: "tool-calls"`).
 */
export async function settleTurn(turn: Turn, prompt: PreparedPrompt | null, outcome: StreamOutcome, rt: TurnRuntime): Promise<TurnEnding> {
  const { output } = turn;
  if (outcome.kind === 'failed') return fail(turn, outcome.errorText ?? safeErrorText(outcome.error));
  if (outcome.kind === 'interrupted') {
    if (outcome.interrupt !== 'stop') return interrupted(turn, outcome.interrupt);
    output.closeOpenTexts();
    if (prompt !== null) {
      const stored = await store(turn, prompt, rt, { status: 'stopped', finishReason: 'stopped', usage: outcome.usage, steps: outcome.steps });
      if (stored) return stored;
    }
    output.send({ type: 'finish', finishReason: 'stop' });
    return { kind: 'stopped' };
  }
  if (outcome.kind === 'awaiting-approval') {
    // Stored like a finished turn, its calls kept pending server-side; the chat is free once the lease is released.
    const record: TurnRecord = { status: 'awaiting-approval', finishReason: 'tool-calls', usage: outcome.usage, steps: outcome.steps, pending: outcome.pending };
    const failedToStore = await store(turn, prompt!, rt, record);
    if (failedToStore) return failedToStore;
    output.send({ type: 'finish', finishReason: 'tool-calls' } as UIMessageChunk);
    return { kind: 'awaiting-approval' };
  }
  const record: TurnRecord = { status: 'complete', finishReason: outcome.finishReason, usage: outcome.usage, steps: outcome.steps };
  const failedToStore = await store(turn, prompt!, rt, record);
  if (failedToStore) return failedToStore;
  output.send({ type: 'finish', finishReason: outcome.finishReason as 'stop' });
  return { kind: 'completed', finishReason: outcome.finishReason };
}

/** Stores the turn; the ending to return when it could not be stored, or null when it was. */
async function store(turn: Turn, prompt: PreparedPrompt, rt: TurnRuntime, record: TurnRecord): Promise<TurnEnding | null> {
  try {
    // A tool call cut off mid-input keeps the input it had, as the AI SDK stores it.
    await turn.answer.settle();
    const result = await turn.observer.save(() => saveTurn(rt.store.asServer(), turn, prompt, record));
    if (result === 'stored') return null;
    if (result === 'lost-lease') {
      turn.output.send({ type: 'error', errorText: TURN_TEXTS.lostLease });
      return { kind: 'lost-lease' };
    }
    return fail(turn, TURN_TEXTS.chatDeleted);
  } catch (error) {
    turn.report(error, 'persist');
    // Two turns at once with one client-chosen id or attachment (admission checked both before either was
    // stored): sending again would be refused, so the text says what happened.
    const conflict = ChatwireError.is(error, 'CONFLICT') || ChatwireError.is(error, 'ATTACHMENT_IN_USE') || ChatwireError.is(error, 'ATTACHMENT_NOT_FOUND');
    return fail(turn, conflict ? TURN_TEXTS.saveConflict : TURN_TEXTS.saveFailed);
  }
}

function interrupted(turn: Turn, kind: Exclude<InterruptKind, 'stop'>): TurnEnding {
  switch (kind) {
    case 'lost-lease':
      turn.output.send({ type: 'error', errorText: TURN_TEXTS.lostLease });
      return { kind: 'lost-lease' };
    case 'first-byte-timeout':
    case 'idle-timeout': {
      const errorText = kind === 'first-byte-timeout' ? TURN_TEXTS.firstByteTimeout : TURN_TEXTS.idleTimeout;
      turn.report(new Error(errorText), 'model');
      return fail(turn, errorText);
    }
    default:
      turn.output.send({ type: 'abort' });
      return { kind: 'aborted' };
  }
}

function fail(turn: Turn, errorText: string): TurnEnding {
  turn.output.send({ type: 'error', errorText });
  return { kind: 'failed', errorText };
}
