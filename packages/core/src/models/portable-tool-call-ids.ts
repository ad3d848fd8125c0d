import { createHash } from 'node:crypto';
import type { LanguageModelV2CallOptions, LanguageModelV2Middleware, LanguageModelV2Prompt } from '@ai-sdk/provider';

/** Ids every provider accepts: the Messages API allows only these characters, OpenAI at most 40 of them. */
const PORTABLE_ID = /^[a-zA-Z0-9_-]{1,40}$/;

/**
 * A chat that moved from one provider to another sends the first provider's tool call ids to the second.
 * Some OpenAI-compatible servers name calls like `functions.records_query:0`, which the Messages API rejects
 * (ids must match `^[a-zA-Z0-9_-]+$`), and OpenAI rejects ids longer than 40 characters. Such an id is
 * replaced, in the call and in its result alike, by one built from its allowed characters and a hash of
 * the whole id, so distinct ids stay distinct and the same id maps the same way at every step. Ids that
 * are already portable are sent unchanged.
 */
export function portableToolCallIds(params: LanguageModelV2CallOptions): LanguageModelV2CallOptions {
  let changed = false;
  const prompt = params.prompt.map((message) => {
    if (message.role !== 'assistant' && message.role !== 'tool') return message;
    let touched = false;
    const content = message.content.map((part) => {
      if (!('toolCallId' in part) || PORTABLE_ID.test(part.toolCallId)) return part;
      touched = true;
      return { ...part, toolCallId: portableId(part.toolCallId) };
    });
    if (!touched) return message;
    changed = true;
    return { ...message, content };
  }) as LanguageModelV2Prompt;
  return changed ? { ...params, prompt } : params;
}

export const portableToolCallIdsMiddleware: LanguageModelV2Middleware = {
  middlewareVersion: 'v2',
  transformParams: async ({ params }) => portableToolCallIds(params),
};

function portableId(id: string): string {
  const hash = createHash('sha256').update(id, 'utf8').digest('hex').slice(0, 12);
  const kept = id.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 40 - hash.length - 1);
  return `${kept}_${hash}`;
}
