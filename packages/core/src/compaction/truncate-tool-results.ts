import type { ModelMessage, ToolResultPart } from 'ai';
import { oldToolResultBytesOf } from './compaction-config.js';
import type { CompactionConfig } from './compaction-types.js';
import { createPromptSizer, type PromptSizer } from './message-size.js';
import { exceedsUtf8Bytes, utf8ByteLength, utf8Prefix } from './utf8.js';

export interface TruncationResult {
  /** Same length and order as the input; unchanged messages are the input objects themselves. */
  messages: ModelMessage[];
  /** Tool results whose payload was replaced. */
  truncated: number;
}

/**
 * Stage 1. Counting tool results from the newest, the `keepRecentToolResults` most recent keep their payload up to
 * `toolResultCap` bytes; older ones are cut to `oldToolResultBytes`. A cut payload becomes
 * `{ type: 'text' | 'error-text', value: '[tool result truncated: ...]\n<first bytes of the payload>' }` of at most
 * that many UTF-8 bytes (the payload of a JSON output is its JSON text). The input is not modified.
 */
export function truncateToolResults(
  messages: readonly ModelMessage[],
  config: CompactionConfig,
  sizer: PromptSizer = createPromptSizer(),
): TruncationResult {
  const oldLimit = oldToolResultBytesOf(config);
  const out = messages.slice();
  let rank = 0;
  let truncated = 0;
  for (let m = messages.length - 1; m >= 0; m--) {
    const msg = messages[m] as ModelMessage;
    if ((msg.role !== 'tool' && msg.role !== 'assistant') || typeof msg.content === 'string') continue;
    let content: typeof msg.content | undefined;
    for (let p = msg.content.length - 1; p >= 0; p--) {
      const part = msg.content[p] as (typeof msg.content)[number];
      if (part.type !== 'tool-result') continue;
      const limit = rank < config.keepRecentToolResults ? config.toolResultCap : oldLimit;
      rank++;
      const { text } = sizer.payload(part);
      if (!exceedsUtf8Bytes(text, limit)) continue;
      content ??= msg.content.slice();
      content[p] = { ...part, output: truncatedOutput(part, text, limit) };
      truncated++;
    }
    if (content !== undefined) out[m] = { ...msg, content } as ModelMessage;
  }
  return { messages: out, truncated };
}

/** The marker that starts a cut payload. */
export function truncationMarker(cutBytes: number, totalBytes: number, keptBytes: number): string {
  return keptBytes === 0
    ? `[tool result truncated: all ${totalBytes} bytes cut]`
    : `[tool result truncated: ${cutBytes} of ${totalBytes} bytes cut; the first ${keptBytes} bytes follow]`;
}

function truncatedOutput(part: ToolResultPart, text: string, limit: number): ToolResultPart['output'] {
  const type = part.output.type === 'error-text' || part.output.type === 'error-json' ? 'error-text' : 'text';
  const total = utf8ByteLength(text);
  // The widest marker for this total (every number has at most as many digits as the total), plus '\n'.
  const room = limit - truncationMarker(total, total, total).length - 1;
  const preview = room > 0 ? utf8Prefix(text, room) : '';
  const kept = preview.length === 0 ? 0 : utf8ByteLength(preview);
  const marker = truncationMarker(total - kept, total, kept);
  return { type, value: kept === 0 ? marker : `${marker}\n${preview}` };
}
