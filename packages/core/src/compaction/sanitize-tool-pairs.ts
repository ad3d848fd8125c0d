import type { ModelMessage } from 'ai';

export interface SanitizeResult {
  /** Unchanged messages are the input objects themselves. */
  messages: ModelMessage[];
  /** Parts and messages removed. */
  dropped: number;
}

type Part = { type: string; toolCallId?: string };

/**
 * Makes a message list acceptable to providers (reference "Provider wire behaviour" 9 and 10):
 * - a tool call is kept only when its result follows it: in the same assistant message (provider-executed tools)
 *   or in the run of tool messages right after that assistant message; a result is kept only when it answers such
 *   a call (first result per call wins);
 * - messages left with an empty content array are removed;
 * - assistant and tool messages before the first user message are removed, so the list starts with a user
 *   message (system messages stay where they are). A list with no user message at all is left as it is.
 */
export function sanitizeToolPairs(messages: readonly ModelMessage[]): SanitizeResult {
  const keep = keptPartsByMessage(messages);
  const out: ModelMessage[] = [];
  let dropped = 0;
  const firstUser = messages.findIndex((m) => m.role === 'user');
  messages.forEach((msg, index) => {
    if (firstUser > index && (msg.role === 'assistant' || msg.role === 'tool')) {
      dropped++;
      return;
    }
    if (typeof msg.content === 'string') {
      out.push(msg);
      return;
    }
    const parts = msg.content as readonly Part[];
    const kept = keep.get(index);
    const content = kept === undefined ? parts : parts.filter((part) => kept.has(part));
    dropped += parts.length - content.length;
    if (content.length === 0) {
      dropped++;
      return;
    }
    out.push(content.length === parts.length ? msg : ({ ...msg, content } as ModelMessage));
  });
  return { messages: out, dropped };
}

/** For each assistant/tool message with tool parts: the set of its tool parts that are properly paired. */
function keptPartsByMessage(messages: readonly ModelMessage[]): Map<number, Set<Part>> {
  const keep = new Map<number, Set<Part>>();
  const partsOf = (index: number): readonly Part[] => {
    const content = (messages[index] as ModelMessage).content;
    return typeof content === 'string' ? [] : (content as readonly Part[]);
  };
  const keptAt = (index: number): Set<Part> => {
    let set = keep.get(index);
    if (set === undefined) {
      set = new Set(partsOf(index).filter((p) => p.type !== 'tool-call' && p.type !== 'tool-result'));
      keep.set(index, set);
    }
    return set;
  };

  for (let i = 0; i < messages.length; i++) {
    const role = (messages[i] as ModelMessage).role;
    if (role === 'tool') {
      keptAt(i); // a tool message not reached from an assistant message keeps no result
      continue;
    }
    if (role !== 'assistant') continue;
    let end = i + 1;
    while (end < messages.length && (messages[end] as ModelMessage).role === 'tool') end++;
    const calls = new Map<string, Part>();
    for (const part of partsOf(i)) {
      if (part.type === 'tool-call' && part.toolCallId !== undefined && !calls.has(part.toolCallId)) {
        calls.set(part.toolCallId, part);
      }
    }
    keptAt(i);
    for (let j = i; j < end; j++) {
      const set = keptAt(j);
      for (const part of partsOf(j)) {
        if (part.type !== 'tool-result' || part.toolCallId === undefined) continue;
        const call = calls.get(part.toolCallId);
        if (call === undefined) continue;
        calls.delete(part.toolCallId); // answered: later duplicates are orphans
        set.add(part);
        keptAt(i).add(call);
      }
    }
    i = end - 1;
  }
  return keep;
}
