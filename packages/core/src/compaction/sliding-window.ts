import type { ModelMessage } from 'ai';
import { arrayJsonChars } from './message-size.js';

/** An atomic piece of a prompt (a history entry, or an assistant message with its tool messages). */
export interface WindowUnit {
  messages: readonly ModelMessage[];
  /** Sum of `JSON.stringify(message).length` over `messages`. */
  size: number;
}

export interface SlidingWindowOptions {
  contextBudget: number;
  /** Floor: never drop a unit if fewer than this many messages (the summary not counted) would remain. */
  minKept: number;
  /** Units at this index and later are never dropped. */
  protectedFrom: number;
  /** Unit 0 is the summary message: it goes only after every other droppable unit, and the floor ignores it. */
  summaryFirst: boolean;
}

export interface SlidingWindowResult<U extends WindowUnit> {
  kept: U[];
  dropped: number;
}

/**
 * Stage 4. Drops the oldest units, whole, while the prompt (`arrayJsonChars` of all messages) is over budget.
 * Each step drops up to the next unit that starts with a user message, so what is kept starts with one.
 * Stops at the protected tail or at the `minKept` floor; then drops the summary unit if still over budget.
 * When it stops over budget the result is the smallest one the floor allows.
 */
export function applySlidingWindow<U extends WindowUnit>(
  units: readonly U[],
  options: SlidingWindowOptions,
): SlidingWindowResult<U> {
  const start = options.summaryFirst && units.length > 0 ? 1 : 0;
  let chars = 0;
  let count = 0;
  for (const unit of units) {
    chars += unit.size;
    count += unit.messages.length;
  }
  let floorCount = count - (start === 1 ? (units[0] as U).messages.length : 0);
  const over = () => arrayJsonChars(chars, count) > options.contextBudget;

  let cut = start;
  while (over() && cut < options.protectedFrom) {
    // A kept part may not start with an assistant or tool message, so the units up to the next one that starts
    // with a user message go together.
    let next = cut + 1;
    while (next < options.protectedFrom && !startsWithUser(units[next] as U)) next++;
    let stepChars = 0;
    let stepCount = 0;
    for (let i = cut; i < next; i++) {
      stepChars += (units[i] as U).size;
      stepCount += (units[i] as U).messages.length;
    }
    if (floorCount - stepCount < options.minKept) break;
    chars -= stepChars;
    count -= stepCount;
    floorCount -= stepCount;
    cut = next;
  }
  let dropSummary = false;
  if (start === 1 && over() && options.protectedFrom > 0) {
    dropSummary = true;
    chars -= (units[0] as U).size;
    count -= (units[0] as U).messages.length;
  }
  const kept = units.slice(cut);
  if (start === 1 && !dropSummary) kept.unshift(units[0] as U);
  return { kept, dropped: cut - start + (dropSummary ? 1 : 0) };
}

function startsWithUser(unit: WindowUnit): boolean {
  return unit.messages[0]?.role === 'user';
}

/** Index of the last unit holding a user message (the newest user message and all after it are protected). */
export function protectedStart(units: readonly WindowUnit[]): number {
  for (let i = units.length - 1; i >= 0; i--) {
    if ((units[i] as WindowUnit).messages.some((m) => m.role === 'user')) return i;
  }
  return Math.max(0, units.length - 1);
}
