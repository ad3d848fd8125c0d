import type { ModelMessage, ToolSet } from 'ai';
import type { LoopPart } from '../model-loop/loop-part.js';
import { stepResponseMessages } from '../model-loop/step-content.js';
import type { Turn } from '../turn/turn.js';
import type { TurnPlan } from '../turn/turn-plan.js';
import type { TurnRuntime } from '../turn/turn-runtime.js';
import { runAnsweredCalls } from './run-answered-calls.js';
import { saveAnsweredCalls, type AnsweredCallsSave } from './save-answered-calls.js';

/** Where the model loop picks a continued turn up: the messages its steps added, and the steps it used. */
export interface Resumed {
  added: ModelMessage[];
  steps: number;
}

/**
 * The start of a turn continued after approvals: the paused step's calls run (or are declined) as answered,
 * their outputs are streamed (`emit`) and stored with the decisions, and the step's messages, results
 * included, are what the model's next step gets. `interrupted`: nothing ran (the calls stay pending).
 */
export async function continuePausedStep(
  turn: Turn,
  plan: Extract<TurnPlan, { trigger: 'approval' }>,
  tools: ToolSet,
  rt: TurnRuntime,
  emit: (part: LoopPart) => void,
): Promise<Resumed | 'interrupted' | Exclude<AnsweredCallsSave, 'stored'>> {
  const { pending } = plan;
  const results = await runAnsweredCalls(pending.calls, plan.answers, tools, { messages: pending.added, abortSignal: turn.signal }, emit);
  if (results === null) return 'interrupted';
  const saved = await saveAnsweredCalls(rt.store.asServer(), turn, plan);
  if (saved !== 'stored') return saved;
  return { added: [...pending.added, ...stepResponseMessages([...pending.content, ...results], tools)], steps: pending.steps };
}
