import type { LanguageModelV2CallOptions } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { portableToolCallIds } from './portable-tool-call-ids.js';

function exchange(id: string): LanguageModelV2CallOptions {
  return {
    prompt: [
      { role: 'user', content: [{ type: 'text', text: 'list my notes' }] },
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: id, toolName: 'records_query', input: { collection: 'notes' } }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: id, toolName: 'records_query', output: { type: 'json', value: [] } }] },
    ],
  };
}

const ids = (params: LanguageModelV2CallOptions) =>
  params.prompt.flatMap((m) => (typeof m.content === 'string' ? [] : m.content.flatMap((p) => ('toolCallId' in p ? [p.toolCallId] : []))));

describe('portableToolCallIds', () => {
  it('leaves portable ids (and the params object) alone', () => {
    for (const id of ['toolu_01A09q90qw90lq917835lq9', 'call_Rb4kZq0pWm2nX7yT5vL8sD1e', 'chatcmpl-tool-abc']) {
      const params = exchange(id);
      expect(portableToolCallIds(params)).toBe(params);
    }
  });

  it('rewrites an id with characters the Messages API rejects, or longer than 40, the same way in call and result', () => {
    for (const id of ['functions.records_query:0', `call_${'x'.repeat(60)}`, 'tool call #1']) {
      const out = ids(portableToolCallIds(exchange(id)));
      expect(out[0]).toMatch(/^[a-zA-Z0-9_-]{1,40}$/);
      expect(out[1]).toBe(out[0]);
      expect(ids(portableToolCallIds(exchange(id)))).toEqual(out);
    }
  });

  it('keeps distinct ids distinct', () => {
    const a = ids(portableToolCallIds(exchange('functions.records_query:0')))[0];
    const b = ids(portableToolCallIds(exchange('functions.records_query:1')))[0];
    expect(a).not.toBe(b);
  });
});
