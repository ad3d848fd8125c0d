import type { ModelMessage, ToolModelMessage, ToolResultPart } from 'ai';
import { describe, expect, it } from 'vitest';
import { createCompactionConfig } from './compaction-config.js';
import { truncateToolResults, truncationMarker } from './truncate-tool-results.js';
import { deepFreeze, jsonResult, textResult, toolCall, toolMessage, user } from './testing/history-fixtures.js';

const bytes = (text: string) => new TextEncoder().encode(text).length;
const resultsOf = (messages: ModelMessage[]): ToolResultPart[] =>
  messages.flatMap((m) => (m.role === 'tool' ? (m as ToolModelMessage).content : []));

/** n call/result pairs, result i = json { i, blob: 'x' * size }. */
function pairs(n: number, size: number): ModelMessage[] {
  const out: ModelMessage[] = [user('go')];
  for (let i = 0; i < n; i++) out.push(toolCall(`c${i}`), toolMessage(jsonResult(`c${i}`, { i, blob: 'x'.repeat(size) })));
  return out;
}

describe('truncateToolResults (stage 1)', () => {
  const config = createCompactionConfig({ contextBudget: 100000, toolResultCap: 2000, keepRecentToolResults: 2, oldToolResultBytes: 300 });

  it('keeps the most recent N results intact and cuts older ones to oldToolResultBytes', () => {
    const input = deepFreeze(pairs(5, 1000));
    const { messages, truncated } = truncateToolResults(input, config);
    const results = resultsOf(messages);
    expect(truncated).toBe(3);
    expect(results.slice(3)).toEqual(resultsOf(input).slice(3));
    for (const result of results.slice(0, 3)) {
      expect(result.output.type).toBe('text');
      expect(bytes(result.output.value as string)).toBeLessThanOrEqual(300);
    }
  });

  it('writes a marker saying how much was cut, followed by the start of the payload', () => {
    const input = pairs(3, 1000);
    const original = JSON.stringify((resultsOf(input)[0] as ToolResultPart).output.value);
    const cut = (resultsOf(truncateToolResults(input, config).messages)[0] as ToolResultPart).output.value as string;
    const [marker, preview] = [cut.slice(0, cut.indexOf('\n')), cut.slice(cut.indexOf('\n') + 1)];
    const kept = bytes(preview);
    expect(marker).toBe(truncationMarker(bytes(original) - kept, bytes(original), kept));
    expect(marker).toMatch(/^\[tool result truncated: \d+ of \d+ bytes cut; the first \d+ bytes follow\]$/);
    expect(original.startsWith(preview)).toBe(true);
  });

  it('caps even the most recent results at toolResultCap bytes', () => {
    const { messages } = truncateToolResults(pairs(1, 5000), config);
    const value = (resultsOf(messages)[0] as ToolResultPart).output.value as string;
    expect(bytes(value)).toBeLessThanOrEqual(2000);
    expect(bytes(value)).toBeGreaterThan(1900); // the cap is used, not wasted
  });

  it('measures bytes, not characters (multi-byte text)', () => {
    const input = [user('go'), toolCall('c1'), toolMessage(textResult('c1', 'ü'.repeat(1500)))]; // 1500 chars, 3000 bytes
    const value = (resultsOf(truncateToolResults(input, config).messages)[0] as ToolResultPart).output.value as string;
    expect(value).toMatch(/^\[tool result truncated: \d+ of 3000 bytes cut/);
    expect(bytes(value)).toBeLessThanOrEqual(2000);
  });

  it('leaves results within their limit untouched (same objects)', () => {
    const input = pairs(4, 100);
    const { messages, truncated } = truncateToolResults(input, config);
    expect(truncated).toBe(0);
    messages.forEach((m, i) => expect(m).toBe(input[i]));
  });

  it('turns error outputs into error-text, keeping the error nature', () => {
    const input: ModelMessage[] = [
      user('go'),
      toolCall('c1'),
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 't', output: { type: 'error-json', value: { e: 'x'.repeat(3000) } } }] },
    ];
    const output = (resultsOf(truncateToolResults(input, config).messages)[0] as ToolResultPart).output;
    expect(output.type).toBe('error-text');
  });

  it('with oldToolResultBytes 0 keeps only the marker for old results', () => {
    const { messages } = truncateToolResults(pairs(2, 100), { ...config, keepRecentToolResults: 0, oldToolResultBytes: 0 });
    const values = resultsOf(messages).map((r) => r.output.value);
    expect(values).toEqual([
      `[tool result truncated: all ${JSON.stringify({ i: 0, blob: 'x'.repeat(100) }).length} bytes cut]`,
      `[tool result truncated: all ${JSON.stringify({ i: 1, blob: 'x'.repeat(100) }).length} bytes cut]`,
    ]);
  });

  it('counts recency across messages and parts, newest last', () => {
    const input: ModelMessage[] = [
      user('go'),
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'a', toolName: 't', input: {} }, { type: 'tool-call', toolCallId: 'b', toolName: 't', input: {} }] },
      toolMessage(jsonResult('a', 'x'.repeat(1000)), jsonResult('b', 'y'.repeat(1000))),
      toolCall('c'),
      toolMessage(jsonResult('c', 'z'.repeat(1000))),
    ];
    const results = resultsOf(truncateToolResults(input, config).messages);
    expect(results.map((r) => r.output.type)).toEqual(['text', 'json', 'json']);
  });
});
