import type { LanguageModelUsage } from 'ai';
import type { TurnEnding } from './turn-ending.js';

/** What an observer is told about a turn when it starts. */
export interface ObservedTurn {
  id: string;
  chatId: string;
  userId: string;
  modelId: string;
  provider: string;
  trigger: string;
}

/**
 * Watches one turn's phases (telemetry spans, metrics). Every method is called on the turn's hot path
 * or around its awaits, so it must be cheap and must not throw.
 */
export interface TurnObserver {
  /** Wraps history loading and compaction. */
  prepare<T>(run: () => Promise<T>): Promise<T>;
  /** A model call (step) began streaming. */
  stepStarted(): void;
  stepFinished(info: { finishReason: string; usage: LanguageModelUsage }): void;
  toolStarted(toolCallId: string, toolName: string): void;
  /** `error` when the tool failed (its input or its execution). */
  toolFinished(toolCallId: string, error?: string): void;
  /** Wraps the save of the turn's rows. */
  save<T>(run: () => Promise<T>): Promise<T>;
  /** The turn is over: its ending and the tokens its finished steps used. */
  ended(ending: TurnEnding, usage: LanguageModelUsage): void;
  /** The ids of the turn's trace span, stored with the turn row so later events (feedback) can join its trace. */
  traceIds?(): TurnTraceIds | undefined;
}

/** A W3C trace id (32 hex) and span id (16 hex). */
export interface TurnTraceIds {
  traceId: string;
  spanId: string;
}

/** Creates the observer of each turn; the default observes nothing at no cost. */
export type TurnObservers = (turn: ObservedTurn) => TurnObserver;

const NOTHING: TurnObserver = {
  prepare: (run) => run(),
  stepStarted: () => undefined,
  stepFinished: () => undefined,
  toolStarted: () => undefined,
  toolFinished: () => undefined,
  save: (run) => run(),
  ended: () => undefined,
};

export const observeNothing: TurnObservers = () => NOTHING;
