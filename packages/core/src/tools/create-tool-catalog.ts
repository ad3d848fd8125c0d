import { ChatwireError } from '@chatwire/storage';
import type { ToolSet } from 'ai';
import { BUILT_IN_TOOLS, type BuiltInToolName } from './built-in-tool-names.js';
import { createBuiltInTools } from './built-in-tools.js';
import { DEFAULT_TOOL_RESULT_CAP } from './cap-tool-result.js';
import { guardedInputSchema, toAiTool, type CatalogEntry } from './to-ai-tool.js';
import { DEFAULT_TOOL_TIMEOUT_MS } from './with-tool-deadline.js';
import { openTurnTools } from './open-turn-tools.js';
import { checkSourceNamespaces, inSourceNamespace, sourceToolFilter } from './tool-source-namespaces.js';
import type { ToolCatalogOptions } from './tool-catalog-options.js';
import type { OfferedTool, ToolCatalog, ToolContext } from './tool-types.js';
import { validateCustomTools } from './validate-custom-tools.js';
import { toWireName } from './wire-name.js';
import { markSourceApprovals, resolveApproveTools } from '../approval/resolve-approve-tools.js';

function positiveInteger(value: number | undefined, fallback: number, name: string, min: number, max: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ChatwireError('CONFIGURATION', `createToolCatalog: ${name} must be an integer from ${min} to ${max}, got ${String(value)}`);
  }
  return value;
}

/** Resolves `allow` (catalog or wire names) to the built-in tools to offer. */
function allowedBuiltIns(allow: readonly string[] | undefined, customNames: readonly string[]): BuiltInToolName[] {
  if (allow === undefined) return [...BUILT_IN_TOOLS];
  const known = new Map<string, string>();
  for (const name of [...BUILT_IN_TOOLS, ...customNames]) {
    known.set(name, name);
    known.set(toWireName(name), name);
  }
  const chosen = new Set<string>();
  for (const name of allow) {
    const resolved = typeof name === 'string' ? known.get(name) : undefined;
    if (resolved === undefined) {
      throw new ChatwireError(
        'CONFIGURATION',
        `createToolCatalog: allow lists unknown tool '${String(name)}'; known tools: ${[...BUILT_IN_TOOLS, ...customNames].join(', ')}`,
      );
    }
    chosen.add(resolved);
  }
  return BUILT_IN_TOOLS.filter((name) => chosen.has(name));
}

/**
 * Builds the tool catalog once at configuration time; every configuration mistake (unknown `allow`
 * name, bad or clashing custom tool name, bad limits) throws `ChatwireError('CONFIGURATION')` here.
 * Per turn, `catalog.forTurn({ caller, records: store.asCaller(caller), abortSignal })` gives the
 * `tools` for `streamText`, keyed by wire name (`records_query`).
 */
export function createToolCatalog(options: ToolCatalogOptions = {}): ToolCatalog {
  const toolResultCap = positiveInteger(options.toolResultCap, DEFAULT_TOOL_RESULT_CAP, 'toolResultCap', 1_000, 10_000_000);
  const toolTimeoutMs = options.toolTimeoutMs === 0 ? 0 : positiveInteger(options.toolTimeoutMs, DEFAULT_TOOL_TIMEOUT_MS, 'toolTimeoutMs', 1, 2 ** 31 - 1);
  const maxQueryLimit = positiveInteger(options.maxQueryLimit, 100, 'maxQueryLimit', 1, 10_000);
  const defaultQueryLimit = positiveInteger(options.defaultQueryLimit, Math.min(20, maxQueryLimit), 'defaultQueryLimit', 1, maxQueryLimit);
  const { usersCollection, store } = options;
  if (usersCollection !== undefined && (typeof usersCollection !== 'string' || usersCollection === '')) {
    throw new ChatwireError('CONFIGURATION', 'createToolCatalog: usersCollection must be a non-empty collection name');
  }
  if (usersCollection !== undefined && store === undefined) {
    throw new ChatwireError('CONFIGURATION', `createToolCatalog: usersCollection '${usersCollection}' needs the record store as option 'store'`);
  }

  const custom = validateCustomTools(options.custom ?? {});
  const sources = options.sources ?? [];
  // Names of source tools (`mcp_crm_find`, `mcp_crm_*`) are checked per turn, when the sources list them.
  const allow = options.allow?.filter((name) => !inSourceNamespace(name, sources));
  const builtIns = createBuiltInTools({
    defaultQueryLimit,
    maxQueryLimit,
    usersCollection,
    serverRecords: store === undefined ? undefined : () => store.asServer(),
  });
  const entries: CatalogEntry[] = [
    ...allowedBuiltIns(allow, Object.keys(custom)).map((name) => ({
      name,
      wireName: toWireName(name),
      builtIn: true,
      definition: builtIns[name],
      inputSchema: guardedInputSchema(name, builtIns[name].inputSchema),
    })),
    ...Object.entries(custom).map(([name, definition]) => ({
      name,
      wireName: toWireName(name),
      builtIn: false,
      definition,
      inputSchema: guardedInputSchema(name, definition.inputSchema),
    })),
  ];

  checkSourceNamespaces(entries.map((entry) => entry.wireName), sources);
  const approve = resolveApproveTools(options.approveTools, entries, (name) => inSourceNamespace(name, sources));
  for (const entry of entries) entry.approve = approve.catalog.has(entry.wireName);
  const catalogNames = new Set(entries.map((entry) => entry.wireName));
  const offered: OfferedTool[] = entries.map((entry) => ({
    name: entry.wireName,
    description: entry.definition.description,
    source: entry.builtIn ? 'built-in' : 'custom',
  }));
  const sourceOptions = { allows: sourceToolFilter(options.allow, sources), toolResultCap, toolTimeoutMs };
  const forTurn = (context: ToolContext): ToolSet => {
    const tools: ToolSet = {};
    for (const entry of entries) {
      tools[entry.wireName] = toAiTool(entry, context, { toolResultCap, toolTimeoutMs, onError: options.onError });
    }
    return tools;
  };
  return {
    names: Object.freeze(entries.map((entry) => entry.name)),
    forTurn,
    openTurn: async (context) => {
      const turnTools = await openTurnTools({ tools: forTurn(context), offered }, sources, context, sourceOptions);
      markSourceApprovals(turnTools.tools, catalogNames, approve);
      return turnTools;
    },
  };
}
