/** A tool as a server lists it: what the model is told, and so what is pinned. */
export interface McpToolDefinition {
  name: string;
  description?: string | undefined;
  inputSchema: Record<string, unknown>;
  /** The schema each result's `structuredContent` is checked against (not pinned: the model is not told it). */
  outputSchema?: Record<string, unknown> | undefined;
}

/** A tool whose definition changed after it was first seen. */
export interface ChangedMcpTool {
  server: string;
  /** The wire name (`mcp_crm_find`). */
  tool: string;
  before: McpToolDefinition;
  after: McpToolDefinition;
}

/** JSON text with object keys sorted, so the same definition always gives the same text. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, v]) => `${JSON.stringify(key)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * Tool definitions pinned as first seen (in this process): a tool whose name, description or input schema
 * later differs is left out until the operator accepts the new definition, either by `accept` returning
 * true for the change or by `acceptChanged(tool)`. Accepting pins the new definition.
 */
export class ToolPins {
  private readonly pinned = new Map<string, { definition: McpToolDefinition; text: string }>();
  private readonly accepted = new Set<string>();

  constructor(private readonly accept: ((change: ChangedMcpTool) => boolean) | undefined) {}

  /** null when the tool may be offered; the change when it is left out. */
  check(server: string, wireName: string, definition: McpToolDefinition): ChangedMcpTool | null {
    const text = canonical({ name: definition.name, description: definition.description ?? '', inputSchema: definition.inputSchema });
    const before = this.pinned.get(wireName);
    if (before === undefined || before.text === text) {
      if (before === undefined) this.pinned.set(wireName, { definition, text });
      return null;
    }
    const change = { server, tool: wireName, before: before.definition, after: definition };
    if (this.accepted.delete(wireName) || this.accept?.(change) === true) {
      this.pinned.set(wireName, { definition, text });
      return null;
    }
    return change;
  }

  /** Accepts the next definition seen of `wireName`, whatever it is. */
  acceptChanged(wireName: string): void {
    this.accepted.add(wireName);
  }
}

/** Tool lists per server and caller, kept for `ttlMs`; at most `maxEntries` (the oldest go first). */
export class ToolListCache {
  private readonly entries = new Map<string, { at: number; tools: McpToolDefinition[] }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 1_000,
  ) {}

  get(key: string): McpToolDefinition[] | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (Date.now() - entry.at < this.ttlMs) return entry.tools;
    this.entries.delete(key);
    return undefined;
  }

  set(key: string, tools: McpToolDefinition[]): void {
    if (this.ttlMs <= 0) return;
    this.entries.delete(key);
    this.entries.set(key, { at: Date.now(), tools });
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }
}
