import type { AssistantModelMessage, ModelMessage, ToolModelMessage, ToolResultPart, UserModelMessage } from 'ai';
import type { HistoryEntry } from '../compaction-types.js';

/** Hand-built ModelMessages for compaction tests. */
export const user = (text: string): UserModelMessage => ({ role: 'user', content: text });

export const assistant = (text: string): AssistantModelMessage => ({ role: 'assistant', content: text });

export const toolCall = (id: string, input: Record<string, unknown> = {}, toolName = 'records_query'): AssistantModelMessage => ({
  role: 'assistant',
  content: [{ type: 'tool-call', toolCallId: id, toolName, input }],
});

export const toolCalls = (text: string, ids: string[]): AssistantModelMessage => ({
  role: 'assistant',
  content: [
    { type: 'text', text },
    ...ids.map((id) => ({ type: 'tool-call' as const, toolCallId: id, toolName: 'records_query', input: { q: id } })),
  ],
});

export const jsonResult = (id: string, value: unknown, toolName = 'records_query'): ToolResultPart => ({
  type: 'tool-result',
  toolCallId: id,
  toolName,
  output: { type: 'json', value: value as never },
});

export const textResult = (id: string, value: string, toolName = 'records_query'): ToolResultPart => ({
  type: 'tool-result',
  toolCallId: id,
  toolName,
  output: { type: 'text', value },
});

export const toolMessage = (...results: ToolResultPart[]): ToolModelMessage => ({ role: 'tool', content: results });

/** An assistant row: call + result (+ closing text). */
export const toolRow = (id: string, callId: string, payload: unknown, closing = 'done'): HistoryEntry => ({
  id,
  messages: [toolCall(callId, { q: callId }), toolMessage(jsonResult(callId, payload)), assistant(closing)],
});

export const entry = (id: string, ...messages: ModelMessage[]): HistoryEntry => ({ id, messages });

/** A conversation of `turns` user/assistant pairs, each message about `size` characters. */
export function chatHistory(turns: number, size: number, prefix = 'e'): HistoryEntry[] {
  const entries: HistoryEntry[] = [];
  for (let i = 0; i < turns; i++) {
    entries.push(entry(`${prefix}${2 * i}`, user(`question ${i} `.padEnd(size, 'q'))));
    entries.push(entry(`${prefix}${2 * i + 1}`, assistant(`answer ${i} `.padEnd(size, 'a'))));
  }
  return entries;
}

/** Throws if any tool call lacks its result right after it, or any result lacks its call. */
export function assertPaired(messages: readonly ModelMessage[]): void {
  for (let i = 0; i < messages.length; i++) {
    const msg = messages[i] as ModelMessage;
    if (msg.role === 'tool') {
      let a = i - 1;
      while (a >= 0 && (messages[a] as ModelMessage).role === 'tool') a--;
      const owner = messages[a];
      for (const part of msg.content) {
        const ok =
          owner?.role === 'assistant' &&
          typeof owner.content !== 'string' &&
          owner.content.some((p) => p.type === 'tool-call' && p.toolCallId === part.toolCallId);
        if (!ok) throw new Error(`tool result ${part.toolCallId} at message ${i} has no call`);
      }
    }
    if (msg.role === 'assistant' && typeof msg.content !== 'string') {
      for (const part of msg.content) {
        if (part.type !== 'tool-call') continue;
        let found = msg.content.some((p) => p.type === 'tool-result' && p.toolCallId === part.toolCallId);
        for (let j = i + 1; !found && j < messages.length && (messages[j] as ModelMessage).role === 'tool'; j++) {
          found = (messages[j] as ToolModelMessage).content.some((p) => p.toolCallId === part.toolCallId);
        }
        if (!found) throw new Error(`tool call ${part.toolCallId} at message ${i} has no result`);
      }
    }
  }
}

/** Recursively freezes a value so a test fails if the code under test mutates its input. */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}
