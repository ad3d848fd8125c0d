import type { NewerMajor } from './cross-major-models.js';
import type { MajorRun } from './run-major.js';

type Chunk = Record<string, unknown>;

/** What a cross-major comparison looks at: everything a user and the store see, but the run's own message id. */
export interface ComparedRun {
  chunks: Chunk[];
  done: boolean;
  storedParts: unknown[] | null;
  storedMessages: number;
  /** Model calls made (one per recorded response). */
  requests: number;
  turnRow: Record<string, unknown> | null;
}

export function comparedRun(run: MajorRun): ComparedRun {
  return {
    chunks: run.chunks.map((chunk) => (chunk.type === 'start' ? { ...chunk, messageId: '<assistant id>' } : chunk)),
    done: run.done,
    storedParts: run.storedParts,
    storedMessages: run.storedMessages,
    requests: run.requests.length,
    turnRow: run.turnRow,
  };
}

/**
 * A genuine difference between the provider packages of two majors on the same provider bytes (not one
 * chatwire's loop or adapter makes): which runs it concerns, why, and how to take it out of the newer major's
 * run so that everything else is still compared exactly.
 */
export interface AcceptedDifference {
  majors: readonly NewerMajor[];
  fixtures: (name: string) => boolean;
  reason: string;
  undo: (run: ComparedRun) => ComparedRun;
}

const CODE_EXECUTION_INPUT_TYPE = '"type": "programmatic-tool-call",';

export const CROSS_MAJOR_DIFFERENCES: readonly AcceptedDifference[] = [
  {
    majors: ['v6', 'v7'],
    // The fixtures whose provider sends a usage chunk (the others end before it).
    fixtures: (name) => name.startsWith('openai-compatible: text and a usage chunk') || name.startsWith('openai-compatible: reasoning'),
    reason:
      '@ai-sdk/openai-compatible@2/3 count reasoning tokens as 0 when the provider sends no completion_tokens_details; ' +
      '@1 (AI SDK 5) leaves them unknown (null in the turn row)',
    undo: (run) => {
      const usage = run.turnRow?.usage as Record<string, unknown> | undefined;
      if (!usage || usage.reasoning !== 0) return run;
      return { ...run, turnRow: { ...run.turnRow, usage: { ...usage, reasoning: null } } };
    },
  },
  {
    majors: ['v6', 'v7'],
    fixtures: (name) => name.startsWith('anthropic: code execution'),
    reason:
      "@ai-sdk/anthropic@3/4 give a code execution call's input a `type: 'programmatic-tool-call'` field (also in its " +
      'streamed input text) and its result an empty `content` list; @2 (AI SDK 5) passes the provider\'s input and result as sent',
    undo: (run) => ({ ...run, chunks: run.chunks.map(withoutCodeExecutionFields), storedParts: run.storedParts?.map((p) => withoutCodeExecutionFields(p as Chunk)) ?? null }),
  },
];

/** The differences accepted for one major and fixture. */
export function crossMajorDifferences(major: NewerMajor, fixtureName: string): AcceptedDifference[] {
  return CROSS_MAJOR_DIFFERENCES.filter((d) => d.majors.includes(major) && d.fixtures(fixtureName));
}

function withoutCodeExecutionFields(value: Chunk): Chunk {
  const out: Chunk = { ...value };
  if (typeof out.inputTextDelta === 'string') out.inputTextDelta = out.inputTextDelta.replace(CODE_EXECUTION_INPUT_TYPE, '');
  const input = out.input as Chunk | undefined;
  if (input && input.type === 'programmatic-tool-call') {
    const { type: _type, ...rest } = input;
    out.input = rest;
  }
  const output = out.output as Chunk | undefined;
  if (output && Array.isArray(output.content) && output.content.length === 0) {
    const { content: _content, ...rest } = output;
    out.output = rest;
  }
  return out;
}
