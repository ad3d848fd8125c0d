import type { ModelMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { applySlidingWindow, protectedStart, type WindowUnit } from './sliding-window.js';
import { assistant, toolCall, user } from './testing/history-fixtures.js';

const unit = (...messages: ModelMessage[]): WindowUnit => ({ messages, size: messages.reduce((n, m) => n + JSON.stringify(m).length, 0) });
const chars = (units: WindowUnit[]) => JSON.stringify(units.flatMap((u) => u.messages)).length;

describe('applySlidingWindow (stage 4)', () => {
  // u0 a1 u2 a3 ... a9 u10: unit 10 is the newest user message
  const units = Array.from({ length: 11 }, (_, i) => unit(i % 2 === 0 ? user(`u${i}`.padEnd(100, '.')) : assistant(`a${i}`.padEnd(100, '.'))));
  const base = { minKept: 1, protectedFrom: 10, summaryFirst: false };

  it('keeps everything when within budget', () => {
    expect(applySlidingWindow(units, { ...base, contextBudget: 1e6 })).toEqual({ kept: units, dropped: 0 });
  });

  it('drops the oldest units, only as many as needed', () => {
    const { kept, dropped } = applySlidingWindow(units, { ...base, contextBudget: chars(units.slice(4)) });
    expect(kept).toEqual(units.slice(4));
    expect(dropped).toBe(4);
  });

  it('drops up to the next unit starting with a user message, so the kept part starts with one', () => {
    const { kept } = applySlidingWindow(units, { ...base, contextBudget: chars(units.slice(5)) });
    expect(kept).toEqual(units.slice(6));
    const mixed = [unit(user('a')), unit(assistant('b')), unit(toolCall('c')), unit(user('d')), unit(user('e'))];
    expect(applySlidingWindow(mixed, { ...base, protectedFrom: 4, contextBudget: chars(mixed.slice(2)) }).kept).toEqual(mixed.slice(3));
  });

  it('stops at the minKept floor even when over budget', () => {
    expect(applySlidingWindow(units, { ...base, contextBudget: 10, minKept: 3 }).kept).toEqual(units.slice(8));
    expect(applySlidingWindow(units, { ...base, contextBudget: 10, minKept: 4 }).kept).toEqual(units.slice(6));
  });

  it('never splits a unit: stops when dropping a whole unit would go below the floor', () => {
    const big = [unit(user('a')), unit(user('b'), assistant('c'), assistant('d')), unit(user('e'))];
    const opts = { contextBudget: 10, protectedFrom: 2, summaryFirst: false };
    expect(applySlidingWindow(big, { ...opts, minKept: 5 }).kept).toEqual(big);
    expect(applySlidingWindow(big, { ...opts, minKept: 2 }).kept).toEqual(big.slice(1));
    expect(applySlidingWindow(big, { ...opts, minKept: 1 }).kept).toEqual(big.slice(2));
  });

  it('never drops protected units', () => {
    expect(applySlidingWindow(units, { ...base, contextBudget: 10, protectedFrom: 6 }).kept).toEqual(units.slice(6));
  });

  it('drops the leading summary unit last, and the floor does not count it', () => {
    const summary = unit(user('Summary of the earlier conversation:\nS'));
    const withSummary = [summary, ...units];
    const opts = { ...base, protectedFrom: 11, summaryFirst: true };
    const keepSummary = applySlidingWindow(withSummary, { ...opts, contextBudget: chars([summary, ...units.slice(6)]) });
    expect(keepSummary.kept).toEqual([summary, ...units.slice(6)]);
    const dropAll = applySlidingWindow(withSummary, { ...opts, contextBudget: chars(units.slice(10)) });
    expect(dropAll.kept).toEqual(units.slice(10));
    expect(dropAll.dropped).toBe(11);
    const floor = applySlidingWindow(withSummary, { ...opts, minKept: 3, contextBudget: 10 });
    expect(floor.kept).toEqual(units.slice(8)); // floor reached, still over: the summary goes too
  });

  it('protects from the last unit holding a user message', () => {
    expect(protectedStart([unit(user('a')), unit(assistant('b')), unit(user('c')), unit(assistant('d'))])).toBe(2);
    expect(protectedStart([unit(assistant('b'))])).toBe(0);
  });
});
