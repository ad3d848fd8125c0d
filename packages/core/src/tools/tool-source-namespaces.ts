import { ChatwireError } from '@chatwire/storage';
import type { ToolSource } from './tool-source.js';

function fail(message: string): never {
  throw new ChatwireError('CONFIGURATION', `createToolCatalog: ${message}`);
}

/** True when `name` (an allow-list entry) names tools of a source: `mcp_crm_find` or `mcp_crm_*`. */
export function inSourceNamespace(name: unknown, sources: readonly ToolSource[]): boolean {
  return typeof name === 'string' && sources.some((source) => source.namespaces.some(({ prefix }) => name.startsWith(prefix)));
}

/**
 * Checks at start-up that no tool can ever be offered under two origins: no catalog tool's wire name lies in
 * a source's namespace (a custom `mcp_crm_x` beside MCP server `crm`), and no namespace contains another
 * (servers `a` and `a_b` could both offer `mcp_a_b_c`). Each clash names both sides.
 */
export function checkSourceNamespaces(catalogWireNames: readonly string[], sources: readonly ToolSource[]): void {
  const namespaces = sources.flatMap((source) => source.namespaces);
  for (const [i, space] of namespaces.entries()) {
    const taken = catalogWireNames.find((name) => name.startsWith(space.prefix));
    if (taken !== undefined) fail(`the tool '${taken}' clashes with MCP server '${space.server}', whose tools are all named '${space.prefix}*'`);
    for (const other of namespaces.slice(i + 1)) {
      if (space.prefix.startsWith(other.prefix) || other.prefix.startsWith(space.prefix)) {
        fail(`MCP servers '${space.server}' and '${other.server}' could offer tools of the same name ('${space.prefix}*' and '${other.prefix}*'); rename one`);
      }
    }
  }
}

/**
 * Which source tools an allow-list lets through: all of them without a list; with one, those it names by
 * wire name (`mcp_crm_find`) or by their server's wildcard (`mcp_crm_*`).
 */
export function sourceToolFilter(allow: readonly string[] | undefined, sources: readonly ToolSource[]): (wireName: string) => boolean {
  if (allow === undefined) return () => true;
  const named = allow.filter((name) => inSourceNamespace(name, sources));
  const exact = new Set(named.filter((name) => !name.endsWith('*')));
  const prefixes = named.filter((name) => name.endsWith('*')).map((name) => name.slice(0, -1));
  return (wireName) => exact.has(wireName) || prefixes.some((prefix) => wireName.startsWith(prefix));
}
