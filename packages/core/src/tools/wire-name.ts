/** What providers accept as a tool name (OpenAI, Anthropic and OpenAI-compatible APIs alike). */
export const WIRE_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * The name a tool is offered to the model under and appears under in stream chunks:
 * the catalog name with dots mapped to underscores (`records.query` -> `records_query`).
 */
export function toWireName(catalogName: string): string {
  return catalogName.replaceAll('.', '_');
}
