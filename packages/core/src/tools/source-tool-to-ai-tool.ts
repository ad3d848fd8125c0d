import { dynamicTool, jsonSchema, type JSONSchema7, type Tool } from 'ai';
import { capToolResult } from './cap-tool-result.js';
import { findForbiddenKey } from './find-forbidden-key.js';
import { toToolError } from './to-tool-error.js';
import type { ToolContext } from './tool-types.js';
import type { SourceTool } from './tool-source.js';
import { withToolDeadline } from './with-tool-deadline.js';

const CAP_HINT = 'Ask for less: call the tool again with narrower input.';

/**
 * A source's tool as an AI SDK dynamic tool of one turn: its JSON Schema goes to the model as it is (the
 * source's server validates the input), keys that could pollute a prototype are refused as a
 * `tool-input-error`, every call runs under the tool's deadline and ends with the turn, and its result is
 * cut to `toolResultCap` bytes with a marker. A failure reaches the model as `tool-output-error` with the
 * source's message; the source reports what the operator must know itself.
 */
export function sourceToolToAiTool(tool: SourceTool, context: ToolContext, options: { toolResultCap: number; toolTimeoutMs: number }): Tool<unknown, unknown> {
  const name = tool.wireName;
  return dynamicTool({
    description: tool.description,
    inputSchema: jsonSchema<unknown>(tool.inputSchema as JSONSchema7, {
      validate: (value) => {
        const problem = findForbiddenKey(value);
        return problem === null ? { success: true, value } : { success: false, error: new Error(`${name}: ${problem}`) };
      },
    }),
    execute: async (input) => {
      context.abortSignal.throwIfAborted();
      let output: unknown;
      try {
        output = await withToolDeadline(name, tool.timeoutMs ?? options.toolTimeoutMs, context.abortSignal, (signal) => tool.execute(input, signal));
      } catch (error) {
        throw toToolError(error, name, { builtIn: false });
      }
      return capToolResult(output, options.toolResultCap, CAP_HINT, name);
    },
  });
}
