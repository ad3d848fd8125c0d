import { ChatwireError } from '@chatwire/storage';
import type { ToolSet } from 'ai';
import { withApprovalRule } from './approval-rule.js';

/** Which tools `approveTools` names: catalog tools by wire name, and a test for source (MCP) tools. */
export interface ApproveTools {
  catalog: ReadonlySet<string>;
  /** True for a source tool's wire name that `approveTools` names exactly or by its server's wildcard. */
  source(wireName: string): boolean;
}

/**
 * Resolves `approveTools` at configuration time: a catalog tool by catalog or wire name (`records.delete`,
 * `records_delete`), a source tool by wire name or wildcard (`mcp_crm_delete`, `mcp_crm_*`; `inSource` tells
 * names in a source's namespace). Anything else is a CONFIGURATION error naming it.
 */
export function resolveApproveTools(
  names: readonly string[] | undefined,
  catalog: ReadonlyArray<{ name: string; wireName: string }>,
  inSource: (name: string) => boolean,
): ApproveTools {
  const byName = new Map<string, string>();
  for (const { name, wireName } of catalog) {
    byName.set(name, wireName);
    byName.set(wireName, wireName);
  }
  const chosen = new Set<string>();
  const exact = new Set<string>();
  const prefixes: string[] = [];
  for (const name of names ?? []) {
    const wireName = typeof name === 'string' ? byName.get(name) : undefined;
    if (wireName !== undefined) chosen.add(wireName);
    else if (typeof name === 'string' && inSource(name)) (name.endsWith('*') ? prefixes.push(name.slice(0, -1)) : exact.add(name));
    else {
      const known = catalog.map((entry) => entry.name).join(', ');
      throw new ChatwireError('CONFIGURATION', `createToolCatalog: approveTools lists '${String(name)}', which is no offered tool; offered: ${known}`);
    }
  }
  return { catalog: chosen, source: (wireName) => exact.has(wireName) || prefixes.some((prefix) => wireName.startsWith(prefix)) };
}

/** Marks the source tools of one turn that `approveTools` names as asking the user first. */
export function markSourceApprovals(tools: ToolSet, catalogNames: ReadonlySet<string>, approve: ApproveTools): void {
  for (const [wireName, tool] of Object.entries(tools)) {
    if (!catalogNames.has(wireName) && approve.source(wireName)) withApprovalRule(tool, true);
  }
}
