import type { ModelMessage } from 'ai';

/**
 * What every provider accepts in a prompt, in one place. Stored history is rebuilt by these rules
 * (load-history.ts) and so are the SDK's own messages between the steps of a turn (the step policy).
 * The other provider rule, for tool-less calls, lives with the provider factory (inline-tool-history.ts).
 */

/**
 * The input a tool call is replayed with. Providers reject a tool call whose input is not a JSON object
 * (Anthropic answers 400 "Input should be a valid dictionary"), while the AI SDK replays whatever the model
 * sent, even a raw string. The rule: an object is kept; a string holding a JSON object (input that was not
 * parsed) is parsed back; anything else (malformed JSON, an array, a number, null, nothing) becomes `{}`.
 * The call's error result still tells the model what was wrong.
 */
export function toolCallInput(input: unknown): Record<string, unknown> {
  if (isPlainObject(input)) return input;
  if (typeof input === 'string') {
    try {
      const parsed: unknown = JSON.parse(input);
      if (isPlainObject(parsed)) return parsed;
    } catch {
      // Not JSON: replaced below.
    }
  }
  return {};
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The same rules inside the tool loop, for the SDK's own messages of earlier steps: a tool call's input
 * follows `toolCallInput` (the SDK resends a failed call's input as the model sent it, possibly a raw
 * string); a call the provider ran itself and that failed there is left out with its error result (the
 * provider packages drop such a result and would send the call alone); and a whitespace-only text block next to a tool call (a common lead-in)
 * is dropped, since providers reject blank text blocks.
 */
export function sanitizeStepMessages(messages: ModelMessage[]): ModelMessage[] {
  let changed = false;
  const out = messages.map((message) => {
    if (message.role !== 'assistant' || typeof message.content === 'string') return message;
    let touched = false;
    const blank = (part: (typeof message.content)[number]) => part.type === 'text' && part.text.trim() === '';
    const keepBlank = message.content.every(blank);
    type Part = (typeof message.content)[number];
    // Provider-executed calls whose result is an error: the provider packages cannot send that result back.
    const failedAtProvider = new Set(
      message.content.flatMap((part) => (part.type === 'tool-result' && part.output.type.startsWith('error') ? [part.toolCallId] : [])),
    );
    const content = message.content.flatMap((part): Part[] => {
      if (!keepBlank && blank(part)) {
        touched = true;
        return [];
      }
      if ((part.type === 'tool-call' || part.type === 'tool-result') && failedAtProvider.has(part.toolCallId)) {
        touched = true;
        return [];
      }
      if (part.type !== 'tool-call') return [part];
      if (isPlainObject(part.input)) return [part];
      touched = true;
      return [{ ...part, input: toolCallInput(part.input) }];
    });
    if (!touched) return message;
    changed = true;
    return { ...message, content };
  });
  return changed ? out : messages;
}
