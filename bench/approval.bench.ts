/**
 * What an approval gate costs before the pause: two turns that differ only in whether their one tool asks for
 * approval, each in a fresh chat, interleaved. The model's first step calls `notes_touch`; the figure is the
 * time from the request to the step's `finish-step` chunk (with the gate: the pause, just before the
 * `data-tool-approval` chunk; without: after the no-op tool ran). Goal: the gate adds <= 0.5 ms (p50). A third
 * line checks a `needsApproval` function that lets the call run: the check's own cost, the tool running in both.
 */
import { z } from 'zod';
import type { BenchRow } from './bench-row.js';
import type { BenchModel, ModelPart } from './support/bench-model.js';
import { createR2Fixture, type FetchHandler, type R2Fixture } from './support/routes.js';
import { QUICK } from './support/quick.js';
import { quantile } from './support/stats.js';

const WARMUP = QUICK ? 10 : 30;
const REPS = QUICK ? 60 : 300;
const USAGE = { inputTokens: 10, outputTokens: 5, totalTokens: 15 };
const FINISH_STEP = Buffer.from('"finish-step"');

/** Calls `notes_touch` when the prompt ends with the user, answers in text after a tool result. */
function toolCallingModel(): BenchModel {
  const parts = (prompt: Parameters<BenchModel['doStream']>[0]['prompt']): ModelPart[] =>
    prompt.at(-1)?.role === 'tool'
      ? [
          { type: 'text-start', id: 't' },
          { type: 'text-delta', id: 't', delta: 'Done.' },
          { type: 'text-end', id: 't' },
          { type: 'finish', finishReason: 'stop', usage: USAGE },
        ]
      : [
          { type: 'tool-call', toolCallId: `call-${Math.random().toString(36).slice(2)}`, toolName: 'notes_touch', input: '{}' },
          { type: 'finish', finishReason: 'tool-calls', usage: USAGE },
        ];
  const model: BenchModel = {
    specificationVersion: 'v2',
    provider: 'bench',
    modelId: 'bench-tools',
    supportedUrls: {},
    doGenerate: () => Promise.reject(new Error('stream only')),
    doStream: async ({ prompt }) => ({
      stream: new ReadableStream<ModelPart>({
        start(controller) {
          for (const part of parts(prompt)) controller.enqueue(part);
          controller.close();
        },
      }),
    }),
  };
  return model;
}

/** handler called -> first bytes holding `finish-step`; the body is read to its end. */
async function toStepEnd(handler: FetchHandler, request: Request): Promise<number> {
  const t0 = performance.now();
  const response = await handler(request);
  const reader = response.body!.getReader();
  let at = -1;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (at < 0 && Buffer.from(value.buffer, value.byteOffset, value.byteLength).includes(FINISH_STEP)) at = performance.now() - t0;
  }
  if (response.status !== 200 || at < 0) throw new Error(`approval bench: status ${response.status}, no finish-step`);
  return at;
}

export default async function bench(): Promise<BenchRow[]> {
  const model = toolCallingModel();
  const touch = (needsApproval: boolean | (() => boolean)) => ({
    description: 'Touches a note.',
    inputSchema: z.object({}),
    needsApproval,
    execute: () => 'touched',
  });
  const lines: Array<{ name: string; fixture: R2Fixture; samples: number[] }> = [];
  for (const [name, needsApproval] of [
    ['without approval', false],
    ['with an approval gate', true],
    ['with a needsApproval function that lets the call run', () => false],
  ] as const) {
    const fixture = await createR2Fixture(model, { historySize: 0, handler: { tools: { allow: [], custom: { 'notes.touch': touch(needsApproval) } } } });
    lines.push({ name, fixture, samples: [] });
  }
  for (let rep = 0; rep < WARMUP + REPS; rep++) {
    for (let k = 0; k < lines.length; k++) {
      const line = lines[(rep + k) % lines.length]!;
      const { request } = line.fixture.request(await line.fixture.createChat());
      const ms = await toStepEnd(line.fixture.handler, request);
      if (rep >= WARMUP) line.samples.push(ms);
    }
  }
  for (const line of lines) if (line.fixture.errors.length > 0) throw new Error(`${line.name} reported: ${String(line.fixture.errors[0])}`);
  const [plain, gated, checked] = lines.map((line) => quantile(line.samples, 0.5)) as [number, number, number];
  const added = gated - plain;
  const checkedAdded = checked - plain;
  const note = `${REPS} interleaved turns per line, a fresh chat each, p50 to the first finish-step`;
  return [
    { group: 'approval', name: 'time to the step end, without approval (no-op tool ran)', value: plain, unit: 'ms', note },
    { group: 'approval', name: 'time to the step end, with an approval gate (the pause)', value: gated, unit: 'ms', ratio: { value: gated / plain, against: 'without' }, note },
    { group: 'approval', name: 'added by the approval gate before the pause chunk', value: added, unit: 'ms', goal: '<= 0.5 ms', met: added <= 0.5, id: 'approval-gate', note },
    {
      group: 'approval',
      name: 'added by a needsApproval function that lets the call run (the check alone; the tool runs in both)',
      value: checkedAdded,
      unit: 'ms',
      goal: '<= 0.5 ms',
      met: checkedAdded <= 0.5,
      note,
    },
  ];
}
