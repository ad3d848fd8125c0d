import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ProviderWatchdog } from './provider-watchdog.js';
import type { InterruptKind } from './turn-ending.js';

const FIRST_BYTE = 1_000;
const IDLE = 300;

function watchdog() {
  const fired: InterruptKind[] = [];
  const dog = new ProviderWatchdog(FIRST_BYTE, IDLE, (kind) => fired.push(kind));
  return { dog, fired };
}

describe('ProviderWatchdog', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('fires first-byte-timeout when a model call gets no part within firstByteMs', () => {
    const { dog, fired } = watchdog();
    dog.modelCallStarted();
    vi.advanceTimersByTime(FIRST_BYTE - 1);
    expect(fired).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(fired).toEqual(['first-byte-timeout']);
    vi.advanceTimersByTime(10 * FIRST_BYTE);
    expect(fired).toEqual(['first-byte-timeout']);
  });

  it('after the first part, fires idle-timeout once idleMs pass without a part', () => {
    const { dog, fired } = watchdog();
    dog.modelCallStarted();
    vi.advanceTimersByTime(FIRST_BYTE - 10); // a slow first byte is fine
    dog.saw('start-step');
    vi.advanceTimersByTime(IDLE - 1);
    expect(fired).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(fired).toEqual(['idle-timeout']);
  });

  it('measures idle time from the last part: parts arriving just in time keep the turn alive', () => {
    const { dog, fired } = watchdog();
    dog.modelCallStarted();
    dog.saw('start-step');
    for (let i = 0; i < 20; i++) {
      vi.advanceTimersByTime(IDLE - 50);
      dog.saw('text-delta');
    }
    expect(fired).toEqual([]);
    vi.advanceTimersByTime(IDLE - 1);
    expect(fired).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(fired).toEqual(['idle-timeout']);
  });

  it('keeps one timer however many parts arrive (a part only records the time)', () => {
    const { dog } = watchdog();
    const setTimeoutSpy = vi.spyOn(globalThis, 'setTimeout');
    dog.modelCallStarted();
    dog.saw('start-step');
    const armed = setTimeoutSpy.mock.calls.length;
    for (let i = 0; i < 1_000; i++) {
      dog.saw('text-delta');
      expect(vi.getTimerCount()).toBe(1);
    }
    expect(setTimeoutSpy.mock.calls.length).toBe(armed);
    setTimeoutSpy.mockRestore();
  });

  it('is paused while a tool call is pending and restarts the idle clock when its result arrives', () => {
    const { dog, fired } = watchdog();
    dog.modelCallStarted();
    dog.saw('start-step');
    dog.saw('tool-call');
    expect(vi.getTimerCount()).toBe(0);
    dog.saw('text-delta'); // still pending: stays paused
    vi.advanceTimersByTime(10 * FIRST_BYTE);
    expect(fired).toEqual([]);
    dog.saw('tool-result');
    vi.advanceTimersByTime(IDLE - 1);
    expect(fired).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(fired).toEqual(['idle-timeout']);
  });

  it('stays paused until every pending tool call has a result or an error', () => {
    const { dog, fired } = watchdog();
    dog.modelCallStarted();
    dog.saw('start-step');
    dog.saw('tool-call');
    dog.saw('tool-call');
    dog.saw('tool-result');
    vi.advanceTimersByTime(10 * FIRST_BYTE);
    expect(fired).toEqual([]);
    dog.saw('tool-error');
    vi.advanceTimersByTime(IDLE);
    expect(fired).toEqual(['idle-timeout']);
  });

  it('finish-step re-arms the first-byte wait for the next model call (tools ran inside the step)', () => {
    const { dog, fired } = watchdog();
    dog.modelCallStarted();
    dog.saw('start-step');
    dog.saw('tool-call'); // a tool the SDK never answers within the step (no execute)
    dog.saw('finish-step');
    vi.advanceTimersByTime(IDLE); // the idle limit does not apply while waiting for the next call's first byte
    expect(fired).toEqual([]);
    vi.advanceTimersByTime(FIRST_BYTE - IDLE - 1);
    expect(fired).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(fired).toEqual(['first-byte-timeout']);
  });

  it('clear() ends the watch: no timer left, nothing fires, later parts arm nothing', () => {
    const { dog, fired } = watchdog();
    dog.modelCallStarted();
    dog.saw('start-step');
    dog.clear();
    expect(vi.getTimerCount()).toBe(0);
    dog.saw('text-delta');
    dog.saw('finish-step');
    dog.modelCallStarted();
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(10 * FIRST_BYTE);
    expect(fired).toEqual([]);
  });

  it('a limit of 0 or Infinity disables that timeout', () => {
    const fired: InterruptKind[] = [];
    const dog = new ProviderWatchdog(0, Number.POSITIVE_INFINITY, (kind) => fired.push(kind));
    dog.modelCallStarted();
    expect(vi.getTimerCount()).toBe(0);
    dog.saw('start-step');
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(1e9);
    expect(fired).toEqual([]);
  });
});
