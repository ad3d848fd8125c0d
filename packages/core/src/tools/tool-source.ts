import type { Caller } from '@chatwire/storage';

/** One tool a source offers for one turn (an MCP server's tool), already bound to the turn's caller. */
export interface SourceTool {
  /** The name the model sees, provider-safe and unique in the catalog (`mcp_crm_find_customer`). */
  wireName: string;
  /** What `GET /tools` shows as the tool's origin (the MCP server's name). */
  server: string;
  description: string;
  /** JSON Schema of the input: an object schema, sent to the model as it is. */
  inputSchema: Record<string, unknown>;
  /** This tool's own deadline per call in milliseconds (default: the catalog's `toolTimeoutMs`). */
  timeoutMs?: number;
  /**
   * Runs one call. `signal` aborts at the deadline or when the turn ends; the call is failed at that moment
   * whether `execute` honours the signal or not. A thrown error's message is what the model is told.
   */
  execute(input: unknown, signal: AbortSignal): Promise<unknown>;
}

/** Why part of a source (one MCP server, or one of its tools) is left out of a turn. */
export interface ToolSourceProblem {
  /** The part of the source: the MCP server's name. */
  server: string;
  /** The tool left out (its wire name), when the problem is one tool rather than the whole server. */
  tool?: string;
  error: unknown;
}

/** A source opened for one turn: its tools, what was left out, and how to let go of it. */
export interface OpenedToolSource {
  tools: readonly SourceTool[];
  problems: readonly ToolSourceProblem[];
  /** Ends the source's connections for this turn; never throws. */
  close(): Promise<void>;
}

/**
 * Tools that live outside the app (MCP servers), opened per turn as the turn's caller and closed when
 * the turn ends. A source reserves wire-name prefixes (`mcp_crm_`, one per server): the catalog refuses at
 * start-up any other tool, or another source's prefix, that could take a name inside them.
 */
export interface ToolSource {
  /** Each part of the source (an MCP server) with the prefix every one of its tools' wire names has. */
  readonly namespaces: readonly { server: string; prefix: string }[];
  /** Opens the source for one turn of `caller`; `signal` aborts when the turn ends. Never throws: problems are returned. */
  open(caller: Caller, signal: AbortSignal): Promise<OpenedToolSource>;
}
