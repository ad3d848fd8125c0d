import { tool, type ModelMessage, type ToolSet } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runModelLoop, type LoopPart } from '../model-loop/run-model-loop.js';
import { STEP_USAGE, scriptedModel, textStep, type Script } from '../turn/testing/scripted-model.js';
import type { ApprovalPausePart } from '../model-loop/loop-part.js';

const HISTORY: ModelMessage[] = [{ role: 'user', content: 'clean up' }];
const runs: string[] = [];
const tools: ToolSet = {
  remove: tool({ inputSchema: z.object({ id: z.string() }), execute: async ({ id }) => (runs.push(`remove:${id}`), 'removed') }),
  look: tool({ inputSchema: z.object({}), execute: async () => (runs.push('look'), 'seen') }),
};
const twoCalls: Script = [
  { type: 'tool-call', toolCallId: 'c-remove', toolName: 'remove', input: '{"id":"n1"}' },
  { type: 'tool-call', toolCallId: 'c-look', toolName: 'look', input: '{}' },
  { type: 'finish', finishReason: 'tool-calls', usage: STEP_USAGE },
];

async function run(scripts: Script[], over: { resume?: { added: ModelMessage[]; steps: number }; needsApproval?: (call: { toolName: string }) => Promise<boolean> } = {}) {
  const scripted = scriptedModel(scripts);
  const parts: LoopPart[] = [];
  await runModelLoop(
    { model: scripted.model, system: undefined, history: async () => HISTORY, tools, maxSteps: 5, abortSignal: new AbortController().signal, maxRetries: 0, ...over },
    (part) => void parts.push(part),
  );
  return { parts, calls: scripted.calls };
}

describe('the model loop at its tool scheduling point', () => {
  it('a step with a call that needs approval runs none of its calls and ends with the approval pause', async () => {
    runs.length = 0;
    const { parts, calls } = await run([twoCalls, textStep('never')], { needsApproval: async (call) => call.toolName === 'remove' });
    expect(runs).toEqual([]);
    expect(calls).toHaveLength(1);
    expect(parts.map((p) => p.type)).toEqual(['start-step', 'tool-call', 'tool-call', 'finish-step', 'approval-pause']);
    const pause = parts.at(-1) as ApprovalPausePart;
    expect(pause.pending.calls).toEqual([
      { toolCallId: 'c-remove', toolName: 'remove', input: { id: 'n1' }, needsApproval: true },
      { toolCallId: 'c-look', toolName: 'look', input: {}, needsApproval: false },
    ]);
    expect(pause.pending.steps).toBe(1);
    expect(pause.pending.added).toEqual([]);
    expect(pause.pending.content.filter((c) => c.type === 'tool-call')).toHaveLength(2);
  });

  it('no call needs approval: the step runs as before', async () => {
    runs.length = 0;
    const { parts } = await run([twoCalls, textStep('done')], { needsApproval: async () => false });
    expect(runs.sort()).toEqual(['look', 'remove:n1']);
    expect(parts.at(-1)).toMatchObject({ type: 'finish', finishReason: 'stop' });
  });

  it('a resumed turn goes on from its step count with the added messages; at the cap it asks the model nothing', async () => {
    const added: ModelMessage[] = [
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c-look', toolName: 'look', input: {} }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c-look', toolName: 'look', output: { type: 'text', value: 'seen' } }] },
    ];
    const resumed = await run([textStep('ok')], { resume: { added, steps: 4 } });
    expect(resumed.calls).toHaveLength(1);
    expect(resumed.calls[0]!.prompt.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    const capped = await run([textStep('never')], { resume: { added, steps: 5 } });
    expect(capped.calls).toHaveLength(0);
    expect(capped.parts).toEqual([{ type: 'finish', finishReason: 'tool-calls', totalUsage: expect.any(Object) }]);
  });
});
