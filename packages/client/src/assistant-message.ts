import type { FinishReason } from './ui-message-chunk.js';
import type { BranchPosition } from './branch-position.js';

/**
 * `streaming` until a terminal action: `finish` -> `done`, `stream-error` -> `error`, `abort` -> `aborted`;
 * `stop` (the stop route kept the partial answer) -> `stopped`, whether it comes before or after `finish`;
 * `request-approval` -> `awaiting-approval` (tool calls wait for the user; the turn's `finish` keeps it).
 */
export type AssistantMessageStatus = 'streaming' | 'done' | 'error' | 'aborted' | 'stopped' | 'awaiting-approval';

/** The states of the AI SDK's tool UI parts. */
export type ToolCallState = 'input-streaming' | 'input-available' | 'output-available' | 'output-error';

export interface TextPart {
  readonly type: 'text';
  /** The stream's text id (unique within the message). */
  readonly id: string;
  readonly text: string;
}

export interface ToolCallPart {
  readonly type: 'tool-call';
  readonly toolCallId: string;
  /** Model-facing name (`records_query`); empty if the first chunk seen for the call carried none. */
  readonly toolName: string;
  readonly state: ToolCallState;
  /** The parsed input once available (`input-available` on); for `fail-tool-input`, the rejected input. */
  readonly input: unknown;
  /** The raw JSON input text streamed so far (`tool-input-delta`), for an "is typing" preview. */
  readonly inputText: string;
  /** Set in state `output-available`. */
  readonly output?: unknown;
  /** Set in state `output-available` while the tool reports preliminary outputs. */
  readonly preliminary?: boolean;
  /** Set in state `output-error`. */
  readonly errorText?: string;
  readonly providerExecuted?: boolean;
  readonly dynamic?: boolean;
  /** `requested` while the call waits for the user's approval (a `data-tool-approval` chunk named it). */
  readonly approval?: 'requested';
}

export type AssistantPart = TextPart | ToolCallPart;

/** What a UI renders for the in-flight assistant message. Treat as immutable; the reducer never mutates it. */
export interface AssistantMessage {
  /** The assistant message id (`X-Asst-Id`), when known. */
  readonly id: string | undefined;
  readonly status: AssistantMessageStatus;
  /** All text deltas of the message joined, in order. */
  readonly text: string;
  /** Text and tool-call parts in stream order (a new text part per text id). */
  readonly parts: readonly AssistantPart[];
  /** Set when `status` is `error`: the first error's text. */
  readonly errorText?: string;
  /** From the `finish` chunk, when the server sent one. */
  readonly finishReason?: FinishReason;
  /** Tree history: the message's place among its siblings, from the `start` chunk (the `branch` action). */
  readonly branch?: BranchPosition;
}

/** The initial state for a turn. */
export function createAssistantMessage(id?: string): AssistantMessage {
  return { id, status: 'streaming', text: '', parts: [] };
}

/** The tool calls of a message, in order. */
export function toolCallsOf(message: AssistantMessage): ToolCallPart[] {
  return message.parts.filter((part): part is ToolCallPart => part.type === 'tool-call');
}
