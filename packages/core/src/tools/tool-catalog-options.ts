import type { RecordAccess } from '@chatwire/storage';
import type { ToolErrorReporter } from './to-tool-error.js';
import type { ChatwireTool } from './tool-types.js';
import type { ToolSource } from './tool-source.js';

export interface ToolCatalogOptions {
  /**
   * Built-in tools to offer, by catalog name (`records.query`) or wire name (`records_query`).
   * Default: all eight. `READ_ONLY_TOOLS` gives an assistant that cannot write. Custom tool names are
   * accepted too, but custom tools are always offered. Unknown names are a CONFIGURATION error.
   */
  allow?: readonly string[];
  /**
   * Tools that ask the user before each call runs: built-in or custom tools by catalog or wire name
   * (`records.delete`, `records_update`), MCP tools by wire name (`mcp_crm_delete`) or their server's wildcard
   * (`mcp_crm_*`). Default none. Unknown names are a CONFIGURATION error.
   */
  approveTools?: readonly string[];
  /** Extra tools keyed by name (dots allowed; `weather.today` is offered as `weather_today`). */
  custom?: Readonly<Record<string, ChatwireTool>>;
  /** Collection with one row per user (`recordId === userId`) that `user.current` returns. Needs `store`. */
  usersCollection?: string;
  /** The record store; only `asServer()` is used, for `user.current`'s lookup of the caller's own row. */
  store?: { asServer(): RecordAccess };
  /** Largest tool result in UTF-8 bytes of its JSON text before it is cut (spec 8.2). Default 30000. */
  toolResultCap?: number;
  /**
   * How long one tool call may run, in milliseconds (default 60000; 0: no limit). At the deadline the call's
   * signal aborts and the call fails with a `TIMEOUT` tool error the model is told about, even if the tool
   * ignores its signal: a hung tool never holds its turn and its chat.
   */
  toolTimeoutMs?: number;
  /** Rows `records.query` returns when the model gives no `limit`. Default 20. */
  defaultQueryLimit?: number;
  /** Largest `limit` `records.query` accepts. Default 100 (the store's own `maxQueryLimit` still applies). */
  maxQueryLimit?: number;
  /**
   * Tools that live elsewhere (MCP servers, see `@chatwire/mcp`), opened per turn as the caller. Their tools
   * are offered under their own prefixes (`mcp_crm_*`); `allow`, when given, must name them (`mcp_crm_find`)
   * or their server's wildcard (`mcp_crm_*`) for them to be offered. A catalog tool inside a source's prefix,
   * or two sources whose prefixes overlap, is a CONFIGURATION error.
   */
  sources?: readonly ToolSource[];
  /** Called with errors that are not `ChatwireError`s (driver failures, bugs in custom tools). */
  onError?: ToolErrorReporter;
}
