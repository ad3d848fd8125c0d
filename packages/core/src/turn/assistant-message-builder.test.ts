import { describe, expect, it } from 'vitest';
import { AssistantMessageBuilder } from './assistant-message-builder.js';

describe('AssistantMessageBuilder.appendText', () => {
  it('builds the same parts as applying text-delta chunks, and ignores a delta of an unknown text id', () => {
    const viaApply = new AssistantMessageBuilder();
    const viaAppend = new AssistantMessageBuilder();
    for (const builder of [viaApply, viaAppend]) {
      builder.apply({ type: 'start-step' });
      builder.apply({ type: 'text-start', id: 't1' });
    }
    for (const delta of ['Hel', 'lo ', 'there']) {
      viaApply.apply({ type: 'text-delta', id: 't1', delta });
      viaAppend.appendText('t1', delta);
    }
    viaApply.apply({ type: 'text-delta', id: 'nope', delta: 'x' });
    viaAppend.appendText('nope', 'x');
    for (const builder of [viaApply, viaAppend]) builder.apply({ type: 'text-end', id: 't1' });

    expect(viaAppend.parts).toEqual([{ type: 'step-start' }, { type: 'text', text: 'Hello there', state: 'done' }]);
    expect(viaAppend.parts).toEqual(viaApply.parts);
    expect(viaAppend.text()).toBe('Hello there');
  });
});
