import { describe, expect, it } from 'vitest';
import { StepState } from './step-state.js';

describe('StepState text blocks', () => {
  it('holds the whole text of each open block after every delta, across hundreds of deltas and two blocks', () => {
    const step = new StepState({}, 'model');
    step.openBlock('r', 'reasoning', undefined);
    step.openBlock('t', 'text', { p: { a: 1 } });
    let reasoning = '';
    let text = '';
    for (let i = 0; i < 300; i++) {
      step.appendText('r', `r${i};`, undefined);
      reasoning += `r${i};`;
      step.appendText('t', `t${i} `, i === 299 ? { p: { a: 2 } } : undefined);
      text += `t${i} `;
      expect(step.content).toEqual([
        { type: 'reasoning', text: reasoning, providerMetadata: undefined },
        { type: 'text', text, providerMetadata: { p: { a: i === 299 ? 2 : 1 } } },
      ]);
    }
    step.closeBlock('t', undefined);
    step.appendText('t', 'after the end', undefined);
    expect(step.content[1]).toEqual({ type: 'text', text, providerMetadata: { p: { a: 2 } } });
  });
});
