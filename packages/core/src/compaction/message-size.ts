import type { ModelMessage, ToolResultPart } from 'ai';

/**
 * The size measure of a prompt used for `contextBudget`: exactly `JSON.stringify(messages).length`, i.e. UTF-16
 * code units of the JSON text of the message array (the system prompt and tool definitions are not included).
 * Cheap to compute and stable; roughly 3-4 characters per token for English text and JSON.
 */
export function measureMessages(messages: readonly ModelMessage[]): number {
  return createPromptSizer().messages(messages);
}

/** The text of a tool result's payload and the characters it takes inside the message JSON. */
export interface ToolResultPayload {
  /** `output.value` for text outputs, else `JSON.stringify(output.value)`. Byte caps apply to this text. */
  text: string;
  /** Characters `output.value` contributes to `JSON.stringify(message)`. */
  jsonChars: number;
}

/** A per-call measuring helper that remembers sizes by object identity (inputs are never mutated). */
export interface PromptSizer {
  /** `JSON.stringify(message).length`. */
  message(message: ModelMessage): number;
  /** `JSON.stringify(messages).length`, from the per-message sizes. */
  messages(messages: readonly ModelMessage[]): number;
  /** Same as `messages` for a list of message lists laid end to end. */
  groups(groups: readonly (readonly ModelMessage[])[]): number;
  payload(part: ToolResultPart): ToolResultPayload;
}

/** JSON text of an array: brackets, items, and a comma between neighbours. */
export function arrayJsonChars(itemChars: number, itemCount: number): number {
  return 2 + itemChars + Math.max(0, itemCount - 1);
}

export function createPromptSizer(): PromptSizer {
  const messageSizes = new Map<ModelMessage, number>();
  const payloads = new Map<ToolResultPart, ToolResultPayload>();

  const payload = (part: ToolResultPart): ToolResultPayload => {
    let info = payloads.get(part);
    if (info === undefined) {
      const output = part.output as { type: string; value: unknown };
      if ((output.type === 'text' || output.type === 'error-text') && typeof output.value === 'string') {
        info = { text: output.value, jsonChars: JSON.stringify(output.value).length };
      } else {
        const text = JSON.stringify(output.value) ?? 'null';
        info = { text, jsonChars: text.length };
      }
      payloads.set(part, info);
    }
    return info;
  };

  const message = (msg: ModelMessage): number => {
    let size = messageSizes.get(msg);
    if (size === undefined) {
      size = measureOne(msg, payload);
      messageSizes.set(msg, size);
    }
    return size;
  };

  const sum = (list: readonly ModelMessage[]): number => {
    let chars = 0;
    for (const msg of list) chars += message(msg);
    return chars;
  };

  return {
    message,
    payload,
    messages: (list) => arrayJsonChars(sum(list), list.length),
    groups: (groups) => {
      let chars = 0;
      let count = 0;
      for (const group of groups) {
        chars += sum(group);
        count += group.length;
      }
      return arrayJsonChars(chars, count);
    },
  };
}

/**
 * Large tool results dominate prompts, and their payload text is needed anyway for the byte caps, so a message
 * with tool results is measured as its skeleton (payloads replaced by `null`) plus the payload sizes: the same
 * number as `JSON.stringify(message).length` without serializing the payloads twice.
 */
function measureOne(msg: ModelMessage, payload: (part: ToolResultPart) => ToolResultPayload): number {
  if (typeof msg.content === 'string' || (msg.role !== 'tool' && msg.role !== 'assistant')) {
    return JSON.stringify(msg).length;
  }
  let delta = 0;
  let skeletonNeeded = false;
  const content = (msg.content as readonly { type: string }[]).map((part) => {
    if (part.type !== 'tool-result') return part;
    const result = part as ToolResultPart;
    const output = result.output as { value?: unknown } | undefined;
    if (output === null || typeof output !== 'object' || output.value === undefined) return part;
    skeletonNeeded = true;
    delta += payload(result).jsonChars - 4; // 4 = 'null'.length
    return { ...result, output: { ...output, value: null } };
  });
  if (!skeletonNeeded) return JSON.stringify(msg).length;
  return JSON.stringify({ ...msg, content }).length + delta;
}
