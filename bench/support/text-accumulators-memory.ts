/**
 * A measuring driver (not a bench): the heap held by the answer text of n open streams after d text deltas,
 * in the two accumulators a turn keeps (the model loop's `StepState` and the turn's `AssistantMessageBuilder`),
 * nothing else. Each delta is a fresh string parsed from JSON, as a provider package hands it over:
 *   node --expose-gc --conditions=@chatwire/source --import tsx bench/support/text-accumulators-memory.ts 300 1000
 */
import { StepState } from '../../packages/core/src/model-loop/step-state.js';
import { AssistantMessageBuilder } from '../../packages/core/src/turn/assistant-message-builder.js';
import { heapAfterGc, requireGc } from './heap-after-gc.js';

const [countArg = '300', deltasArg = '1000'] = process.argv.slice(2);
const count = Number(countArg);
const deltas = Number(deltasArg);
requireGc();

const steps: StepState[] = [];
const builders: AssistantMessageBuilder[] = [];
for (let i = 0; i < count; i++) {
  const step = new StepState({}, 'bench');
  step.openBlock('t', 'text', undefined);
  steps.push(step);
  const builder = new AssistantMessageBuilder();
  builder.apply({ type: 'text-start', id: 't' });
  builders.push(builder);
}
const before = heapAfterGc();
let expected = '';
for (let d = 0; d < deltas; d++) {
  const json = `"w${d % 10} "`;
  expected += JSON.parse(json) as string;
  for (let i = 0; i < count; i++) {
    // One delta object per stream, shared by both accumulators (as the turn shares the provider's string).
    const delta = JSON.parse(json) as string;
    steps[i]!.appendText('t', delta, undefined);
    builders[i]!.appendText('t', delta);
  }
}
const after = heapAfterGc();
const text = (steps[0]!.content[0] as { text: string }).text;
if (text !== expected || builders[0]!.text() !== expected) throw new Error('the accumulated text differs from the deltas');
const perStream = (after - before) / count;
process.stdout.write(
  `${count} streams x ${deltas} deltas (${expected.length} chars each): ${(perStream / 1024).toFixed(1)} KB heap per stream, ` +
    `${(perStream / deltas).toFixed(1)} B per delta (two accumulators; the text itself is ${(expected.length / 1024).toFixed(1)} KB)\n`,
);
