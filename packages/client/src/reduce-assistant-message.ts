import type { Action, UpsertToolCallAction } from './action.js';
import type { AssistantMessage, AssistantPart, ToolCallPart } from './assistant-message.js';

/**
 * `(state, action) => state`, immutable and cheap: only the changed part and the parts array are copied.
 * Never throws: a tool action for an unknown `toolCallId` creates the call. Content actions arriving after a
 * terminal status still apply; status rules:
 * - `finish` -> `done` only from `streaming` (an `error` chunk is followed by `finish`: the status stays `error`;
 *   after `request-approval` it stays `awaiting-approval`);
 * - `request-approval` -> `awaiting-approval` from `streaming`, and the call is marked `approval: 'requested'`
 *   until its output arrives;
 * - `stream-error` -> `error` (first `errorText` kept);
 * - `abort` -> `aborted` unless already `error` or `stopped`;
 * - `stop` -> `stopped` unless already `error` (from `streaming`, `done` or `aborted`: the stop route's answer
 *   and the stream's end race, and a stopped answer is stored whichever comes first).
 */
export function reduceAssistantMessage(state: AssistantMessage, action: Action): AssistantMessage {
  switch (action.type) {
    case 'append-text': {
      const parts = state.parts;
      const last = parts[parts.length - 1];
      let next: AssistantPart[];
      if (last !== undefined && last.type === 'text' && last.id === action.id) {
        next = parts.slice();
        next[next.length - 1] = { type: 'text', id: last.id, text: last.text + action.delta };
      } else {
        const i = parts.findIndex((p) => p.type === 'text' && p.id === action.id);
        next = parts.slice();
        if (i === -1) next.push({ type: 'text', id: action.id, text: action.delta });
        else next[i] = { type: 'text', id: action.id, text: (parts[i] as { text: string }).text + action.delta };
      }
      return { ...state, text: state.text + action.delta, parts: next };
    }
    case 'upsert-tool-call':
      return updateTool(state, action.toolCallId, (call) => upsert(call, action));
    case 'branch':
      return { ...state, branch: action.branch };
    case 'finalize-tool-call':
      return updateTool(state, action.toolCallId, (call) => {
        const { errorText: _e, preliminary: _p, ...rest } = call;
        return action.preliminary === undefined
          ? { ...withoutApproval(rest), state: 'output-available', output: action.output }
          : { ...withoutApproval(rest), state: 'output-available', output: action.output, preliminary: action.preliminary };
      });
    case 'fail-tool-input':
      return updateTool(state, action.toolCallId, (call) => ({
        ...call,
        toolName: action.toolName,
        state: 'output-error',
        input: action.input,
        errorText: action.errorText,
      }));
    case 'fail-tool-output':
      return updateTool(state, action.toolCallId, (call) => ({
        ...call,
        state: 'output-error',
        errorText: action.errorText,
      }));
    case 'stream-error':
      return state.status === 'error' ? state : { ...state, status: 'error', errorText: action.errorText };
    case 'abort':
      return state.status === 'error' || state.status === 'aborted' || state.status === 'stopped' ? state : { ...state, status: 'aborted' };
    case 'stop':
      return state.status === 'error' || state.status === 'stopped' ? state : { ...state, status: 'stopped' };
    case 'request-approval':
      return {
        ...updateTool(state, action.toolCallId, (call) => ({
          ...call,
          toolName: call.toolName || action.toolName,
          ...(call.state === 'input-streaming' ? { state: 'input-available' as const, input: action.input } : {}),
          approval: 'requested',
        })),
        status: state.status === 'streaming' ? 'awaiting-approval' : state.status,
      };
    case 'finish': {
      const status = state.status === 'streaming' ? 'done' : state.status;
      return action.finishReason === undefined ? { ...state, status } : { ...state, status, finishReason: action.finishReason };
    }
  }
}

function withoutApproval(call: Omit<ToolCallPart, 'errorText' | 'preliminary'>): Omit<ToolCallPart, 'errorText' | 'preliminary' | 'approval'> {
  const { approval: _a, ...rest } = call;
  return rest;
}

/** Applies several actions (e.g. a batch replayed from a log). */
export function reduceAssistantMessageAll(state: AssistantMessage, actions: Iterable<Action>): AssistantMessage {
  let next = state;
  for (const action of actions) next = reduceAssistantMessage(next, action);
  return next;
}

function upsert(call: ToolCallPart, action: UpsertToolCallAction): ToolCallPart {
  // Only forward from `input-streaming`: a late delta must not move a finished call backwards.
  const state = call.state === 'input-streaming' ? action.state : call.state;
  const next: { -readonly [K in keyof ToolCallPart]: ToolCallPart[K] } = { ...call, state };
  if (action.toolName !== undefined) next.toolName = action.toolName;
  if (action.inputTextDelta !== undefined) next.inputText = call.inputText + action.inputTextDelta;
  if ('input' in action) next.input = action.input;
  if (action.providerExecuted !== undefined) next.providerExecuted = action.providerExecuted;
  if (action.dynamic !== undefined) next.dynamic = action.dynamic;
  return next;
}

function updateTool(
  state: AssistantMessage,
  toolCallId: string,
  change: (call: ToolCallPart) => ToolCallPart,
): AssistantMessage {
  const parts = state.parts;
  let i = parts.length - 1;
  while (i >= 0 && !(parts[i]!.type === 'tool-call' && (parts[i] as ToolCallPart).toolCallId === toolCallId)) i--;
  const next = parts.slice();
  if (i === -1) {
    const fresh: ToolCallPart = { type: 'tool-call', toolCallId, toolName: '', state: 'input-streaming', input: undefined, inputText: '' };
    next.push(change(fresh));
  } else {
    next[i] = change(parts[i] as ToolCallPart);
  }
  return { ...state, parts: next };
}
