import { describe, expect, it } from 'vitest';
import { ChatwireError } from '@chatwire/storage';
import { createToolCatalog } from './create-tool-catalog.js';
import { finalStepWithoutTools, MAX_TOOL_STEPS } from './final-step-without-tools.js';
import { ALICE, runTurn, scriptedModel, seededStore } from './tool-test-kit.js';

describe('finalStepWithoutTools', () => {
  it('caps a model that calls tools forever at 5 model calls, the 5th with toolChoice none, ending in text', async () => {
    const store = await seededStore();
    const tools = createToolCatalog().forTurn({ caller: ALICE, records: store.asCaller(ALICE), abortSignal: new AbortController().signal });
    // Calls a tool on every step it is allowed to; answers in text only when told it may not use tools.
    const model = scriptedModel((options, i) =>
      options.toolChoice?.type === 'none'
        ? { text: 'Here is what I found.' }
        : { toolCalls: [{ toolName: 'records_query', input: { collection: 'notes' }, toolCallId: `loop-${i}` }] },
    );
    const chunks = await runTurn(model, tools);

    expect(MAX_TOOL_STEPS).toBe(5);
    expect(model.doStreamCalls).toHaveLength(5);
    expect(model.doStreamCalls.map((call) => call.toolChoice?.type)).toEqual(['auto', 'auto', 'auto', 'auto', 'none']);
    expect(chunks.filter((c) => c.type === 'tool-output-available')).toHaveLength(4);
    expect(chunks.filter((c) => c.type === 'start-step')).toHaveLength(5);
    const last = chunks.filter((c) => c.type !== 'finish-step' && c.type !== 'finish').at(-1);
    expect(last).toMatchObject({ type: 'text-end' });
    expect(chunks.at(-1)).toMatchObject({ type: 'finish', finishReason: 'stop' });
  });

  it('leaves earlier steps alone and applies to every step from maxSteps - 1 on', () => {
    const prepare = finalStepWithoutTools(3);
    const at = (stepNumber: number) =>
      prepare({ stepNumber, steps: [], model: 'unused', messages: [] });
    expect([at(0), at(1), at(2), at(3)]).toEqual([undefined, undefined, { toolChoice: 'none' }, { toolChoice: 'none' }]);
    expect(finalStepWithoutTools(1)({ stepNumber: 0, steps: [], model: 'unused', messages: [] })).toEqual({ toolChoice: 'none' });
  });

  it('rejects a step count that is not a positive integer', () => {
    for (const bad of [0, -1, 2.5, Number.NaN]) {
      expect(() => finalStepWithoutTools(bad)).toThrow(ChatwireError);
    }
  });
});
