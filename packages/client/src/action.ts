import type { FinishReason } from './ui-message-chunk.js';
import type { BranchAction } from './branch-action.js';

/**
 * What a UI does with the stream (spec 6). The first seven are the spec's actions; two are chatwire
 * extensions (non-spec): `finish`, so a reducer can tell "done" from "still streaming" without watching the
 * iterator end, and `stop`, which no chunk produces (the client dispatches it when the stop route kept the
 * answer). Every action is a plain, freshly created object.
 */
export type Action =
  | AppendTextAction
  | UpsertToolCallAction
  | FinalizeToolCallAction
  | FailToolInputAction
  | FailToolOutputAction
  | StreamErrorAction
  | AbortAction
  | FinishAction
  | StopAction
  | RequestApprovalAction
  | BranchAction;

export type ActionType = Action['type'];

/** `text-delta`: append `delta` to the text part `id` (ids are unique within one message). */
export interface AppendTextAction {
  type: 'append-text';
  id: string;
  delta: string;
}

/**
 * A tool call started or progressed. From `tool-input-start` (state `input-streaming`, `toolName`),
 * `tool-input-delta` (state `input-streaming`, `inputTextDelta`: the next piece of the raw JSON input) and
 * `tool-input-available` (state `input-available`, `toolName` and the parsed `input`). A field that is
 * absent leaves the call's current value as it is.
 */
export interface UpsertToolCallAction {
  type: 'upsert-tool-call';
  toolCallId: string;
  state: 'input-streaming' | 'input-available';
  toolName?: string;
  inputTextDelta?: string;
  input?: unknown;
  providerExecuted?: boolean;
  dynamic?: boolean;
}

/** `tool-output-available`: the tool returned `output`. `preliminary: true` means more outputs follow. */
export interface FinalizeToolCallAction {
  type: 'finalize-tool-call';
  toolCallId: string;
  output: unknown;
  preliminary?: boolean;
}

/** `tool-input-error`: the input (kept as sent, possibly a raw string) was rejected by the tool's schema. */
export interface FailToolInputAction {
  type: 'fail-tool-input';
  toolCallId: string;
  toolName: string;
  input: unknown;
  errorText: string;
}

/** `tool-output-error`: the tool's execute threw (or its input was rejected just before). */
export interface FailToolOutputAction {
  type: 'fail-tool-output';
  toolCallId: string;
  errorText: string;
}

/**
 * A top-level error. `origin: 'server'` is an `error` chunk; `origin: 'network'` is synthesised by the
 * stream helpers when reading the body fails or the body ends before `finish`/`abort`/`error`.
 */
export interface StreamErrorAction {
  type: 'stream-error';
  errorText: string;
  origin: 'server' | 'network';
}

/** The turn was aborted: by the server (`abort` chunk) or by the client (`abort()` / its signal). */
export interface AbortAction {
  type: 'abort';
  origin: 'server' | 'client';
}

/**
 * Client-side, from no chunk: the stop route stopped this turn (`stopTurn` answered `{ stopped: true }`), so
 * the partial answer is stored with `status: 'stopped'`. Dispatch it yourself; the stream of a stopped turn
 * ends like a finished one (`text-end`, `finish`), before or after the stop route answers.
 */
export interface StopAction {
  type: 'stop';
}

/**
 * Non-spec extension: the `data-tool-approval` chunk. The turn paused: the call `toolCallId` waits for the
 * user's approval (answer it with `POST /chat`, `trigger: "approval"`).
 */
export interface RequestApprovalAction {
  type: 'request-approval';
  toolCallId: string;
  toolName: string;
  input: unknown;
}

/** Non-spec extension: the `finish` chunk, the normal end of the turn. */
export interface FinishAction {
  type: 'finish';
  finishReason?: FinishReason;
}
