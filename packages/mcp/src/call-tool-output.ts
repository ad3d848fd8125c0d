/** The part of an MCP `CallToolResult` chatwire reads (the SDK has checked its shape). */
interface CallToolResultLike {
  content?: { type: string; text?: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

function textOf(content: CallToolResultLike['content']): string {
  return (content ?? [])
    .filter((part) => part.type === 'text' && typeof part.text === 'string')
    .map((part) => part.text)
    .join('\n');
}

/**
 * What the model is given for a tool's result: its structured content when it has some, its text when all
 * its content is text, else its content parts as they are (the catalog caps the size). A result the tool
 * flags as an error (`isError`) throws, with the tool's own text as the message the model sees.
 */
export function callToolOutput(result: unknown, wireName: string): unknown {
  const { content, structuredContent, isError } = result as CallToolResultLike;
  if (isError === true) throw new Error(`${wireName}: ${textOf(content) || 'the tool failed without saying why'}`);
  if (structuredContent !== undefined) return structuredContent;
  const parts = content ?? [];
  if (parts.every((part) => part.type === 'text')) return textOf(parts);
  return parts;
}
