import { jsonSchema, tool, zodSchema, type Schema, type Tool } from 'ai';
import { capToolResult } from './cap-tool-result.js';
import { findForbiddenKey } from './find-forbidden-key.js';
import { toToolError, type ToolErrorReporter } from './to-tool-error.js';
import { withToolDeadline } from './with-tool-deadline.js';
import type { ChatwireTool, ToolContext } from './tool-types.js';
import { withApprovalRule } from '../approval/approval-rule.js';

/** One offered tool, prepared at configuration time and bound to a caller per turn. */
export interface CatalogEntry {
  /** Catalog name (`records.query`). */
  name: string;
  /** Provider-safe name (`records_query`). */
  wireName: string;
  builtIn: boolean;
  /** Listed in `approveTools`: every call asks the user first, whatever the definition says. */
  approve?: boolean;
  definition: ChatwireTool;
  /** The definition's zod schema as the AI SDK sees it, with the forbidden-key check in front. */
  inputSchema: Schema<unknown>;
}

const DEFAULT_CAP_HINT = 'Ask for less: call the tool again with narrower input.';

/**
 * The zod schema as an AI SDK schema whose validation first refuses prototype-pollution keys
 * (`__proto__`, `constructor`, `prototype`) anywhere in the input, so they become `tool-input-error`
 * instead of being silently stripped by zod. Reading `.jsonSchema` converts the zod schema (lazily).
 */
export function guardedInputSchema(toolName: string, schema: ChatwireTool['inputSchema']): Schema<unknown> {
  const base = zodSchema(schema) as Schema<unknown>;
  return jsonSchema<unknown>(() => base.jsonSchema, {
    validate: async (value) => {
      const problem = findForbiddenKey(value);
      if (problem !== null) return { success: false, error: new Error(`${toolName}: ${problem}`) };
      if (base.validate === undefined) return { success: true, value };
      return base.validate(value);
    },
  });
}

/** The AI SDK tool for one entry, bound to this turn's caller, record access and abort signal. */
export function toAiTool(
  entry: CatalogEntry,
  context: ToolContext,
  options: { toolResultCap: number; toolTimeoutMs: number; onError?: ToolErrorReporter | undefined },
): Tool<unknown, unknown> {
  const { definition } = entry;
  const made = tool<unknown, unknown>({
    description: definition.description,
    inputSchema: entry.inputSchema,
    execute: async (input) => {
      context.abortSignal.throwIfAborted();
      let output: unknown;
      try {
        output = await withToolDeadline(entry.name, options.toolTimeoutMs, context.abortSignal, (abortSignal) =>
          Promise.resolve(definition.execute(input, { ...context, abortSignal })),
        );
      } catch (error) {
        throw toToolError(error, entry.name, { builtIn: entry.builtIn, onError: options.onError });
      }
      return capToolResult(output, options.toolResultCap, definition.resultCapHint ?? DEFAULT_CAP_HINT, entry.name);
    },
  });
  return withApprovalRule(made, entry.approve === true ? true : definition.needsApproval);
}
