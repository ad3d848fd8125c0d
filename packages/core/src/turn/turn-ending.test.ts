import { describe, expect, it } from 'vitest';
import { TurnInterrupt } from './turn-ending.js';

describe('TurnInterrupt.kindOf', () => {
  it('reads the kind of a TurnInterrupt reason; any other abort reason is a disconnect', () => {
    const stopped = new AbortController();
    stopped.abort(new TurnInterrupt('stop'));
    expect(TurnInterrupt.kindOf(stopped.signal)).toBe('stop');
    const plain = new AbortController();
    plain.abort();
    expect(TurnInterrupt.kindOf(plain.signal)).toBe('disconnect');
    const other = new AbortController();
    other.abort(new Error('x'));
    expect(TurnInterrupt.kindOf(other.signal)).toBe('disconnect');
  });
});
