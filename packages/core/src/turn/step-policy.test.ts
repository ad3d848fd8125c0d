import type { ModelMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { createCompactionConfig } from '../compaction/index.js';
import { MAX_TOOL_STEPS, stepPolicy } from './step-policy.js';

const config = createCompactionConfig({ contextBudget: 20_000, toolResultCap: 1_000, keepRecentToolResults: 0, oldToolResultBytes: 300 });

/** A prompt as the SDK builds it after one tool round trip: a blank lead-in, a raw-string input, a big result. */
function stepMessages(): ModelMessage[] {
  return [
    { role: 'user', content: 'look it up' },
    {
      role: 'assistant',
      content: [
        { type: 'text', text: '  ' },
        { type: 'tool-call', toolCallId: 'c1', toolName: 'lookup', input: '{"q":"x"}' },
      ],
    },
    {
      role: 'tool',
      content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'lookup', output: { type: 'text', value: 'y'.repeat(5_000) } }],
    },
  ];
}

function prepare(stepNumber: number, messages: ModelMessage[]) {
  const { prepareStep } = stepPolicy(config);
  return prepareStep({ stepNumber, messages }) as
    | { messages: ModelMessage[]; toolChoice?: unknown }
    | undefined;
}

describe('stepPolicy', () => {
  it('leaves the first step untouched (the prompt was prepared before the turn)', () => {
    expect(prepare(0, stepMessages())).toBeUndefined();
  });

  it('from the second step on, sanitizes the SDK messages (no blank text, object inputs) and compacts them', () => {
    const prepared = prepare(1, stepMessages());
    expect(prepared).toBeDefined();
    const assistant = prepared!.messages.find((m) => m.role === 'assistant') as { content: Array<{ type: string; input?: unknown }> };
    expect(assistant.content.map((p) => p.type)).toEqual(['tool-call']);
    expect(assistant.content[0]!.input).toEqual({ q: 'x' });
    const tool = JSON.stringify(prepared!.messages.find((m) => m.role === 'tool'));
    expect(tool.length).toBeLessThan(2_000); // the 5 000-character result was cut to the cap
    expect(tool).not.toContain('y'.repeat(1_001));
  });

  it('offers no tool on the last allowed step only', () => {
    for (let step = 1; step < MAX_TOOL_STEPS - 1; step++) expect(prepare(step, stepMessages())).not.toHaveProperty('toolChoice');
    expect(prepare(MAX_TOOL_STEPS - 1, stepMessages())).toMatchObject({ toolChoice: 'none' });
    expect(MAX_TOOL_STEPS).toBe(5);
  });

  it('allows five model calls per turn', () => {
    expect(stepPolicy(config).maxSteps).toBe(5);
  });
});
