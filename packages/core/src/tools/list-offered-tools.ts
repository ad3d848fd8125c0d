import type { Caller, RecordAccess } from '@chatwire/storage';
import { openCatalogForTurn } from './open-turn-tools.js';
import type { OfferedTool, ToolCatalog } from './tool-types.js';

export interface OfferedTools {
  /** What a turn of this caller would offer the model now, each with its origin. */
  tools: OfferedTool[];
  /** Tool sources (MCP servers) or their tools left out right now, and why. */
  unavailable: { server: string; tool?: string; message: string }[];
}

/**
 * The tools a turn of `caller` would offer right now: the catalog opened as for a turn (MCP servers
 * included, as the caller) and closed at once. What is left out goes to `report` as well.
 */
export async function listOfferedTools(
  catalog: ToolCatalog,
  caller: Caller,
  records: RecordAccess,
  report: (error: unknown) => void,
): Promise<OfferedTools> {
  const controller = new AbortController();
  const opened = await openCatalogForTurn(catalog, { caller, records, abortSignal: controller.signal });
  controller.abort();
  opened.close().catch(report);
  const unavailable = opened.problems.map(({ server, tool, error }) => {
    report(error);
    return { server, ...(tool === undefined ? {} : { tool }), message: error instanceof Error ? error.message : String(error) };
  });
  return { tools: [...opened.offered], unavailable };
}
