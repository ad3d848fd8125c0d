import { ChatwireError } from '@chatwire/storage';
import type { ToolSet } from 'ai';
import { sourceToolToAiTool } from './source-tool-to-ai-tool.js';
import type { OpenedToolSource, ToolSource } from './tool-source.js';
import type { OfferedTool, ToolCatalog, ToolContext, TurnTools } from './tool-types.js';
import { WIRE_NAME_PATTERN } from './wire-name.js';

const NOTHING_TO_CLOSE = async (): Promise<void> => undefined;

/**
 * The tools of one turn: the catalog's own tools plus those the sources offer to this caller now. Sources
 * open in parallel; one that fails leaves only its own tools out (as a problem, never an exception). A
 * source tool that the allow-list leaves out is skipped; one whose name is already taken is left out as a
 * problem (the start-up checks make that a misbehaving source).
 */
export async function openTurnTools(
  own: { tools: ToolSet; offered: readonly OfferedTool[] },
  sources: readonly ToolSource[],
  context: ToolContext,
  options: { allows(wireName: string): boolean; toolResultCap: number; toolTimeoutMs: number },
): Promise<TurnTools> {
  if (sources.length === 0) return { ...own, problems: [], close: NOTHING_TO_CLOSE };
  const opened = await Promise.all(sources.map((source) => openSource(source, context)));
  const tools: ToolSet = { ...own.tools };
  const offered = [...own.offered];
  const problems = opened.flatMap((source) => source.problems);
  for (const tool of opened.flatMap((source) => source.tools)) {
    if (!options.allows(tool.wireName)) continue;
    if (Object.hasOwn(tools, tool.wireName) || !WIRE_NAME_PATTERN.test(tool.wireName)) {
      const why = Object.hasOwn(tools, tool.wireName) ? 'another tool has that name' : 'providers reject that name';
      problems.push({ server: tool.server, tool: tool.wireName, error: new ChatwireError('CONFIGURATION', `${tool.wireName}: left out, ${why}`) });
      continue;
    }
    tools[tool.wireName] = sourceToolToAiTool(tool, context, options);
    offered.push({ name: tool.wireName, description: tool.description, source: 'mcp', server: tool.server });
  }
  return {
    tools,
    offered,
    problems,
    close: async () => {
      await Promise.all(opened.map((source) => source.close().catch(() => undefined)));
    },
  };
}

async function openSource(source: ToolSource, context: ToolContext): Promise<OpenedToolSource> {
  try {
    return await source.open(context.caller, context.abortSignal);
  } catch (error) {
    return { tools: [], problems: source.namespaces.map(({ server }) => ({ server, error })), close: NOTHING_TO_CLOSE };
  }
}

/** A turn's tools from any catalog: its `openTurn`, or its synchronous `forTurn` with nothing to close. */
export async function openCatalogForTurn(catalog: ToolCatalog, context: ToolContext): Promise<TurnTools> {
  if (catalog.openTurn) return catalog.openTurn(context);
  const tools = catalog.forTurn(context);
  const offered: OfferedTool[] = Object.entries(tools).map(([name, tool]) => ({ name, description: tool.description ?? '', source: 'custom' }));
  return { tools, offered, problems: [], close: NOTHING_TO_CLOSE };
}
