import { z } from 'zod/v4';

/** `GET /tools`'s answer, as the route writes it. */
export const TOOLS_RESPONSE = z.object({
  tools: z.array(
    z.object({
      name: z.string().describe('The name the model calls it by and stream chunks carry (`records_query`, `mcp_crm_find`).'),
      description: z.string(),
      source: z.enum(['built-in', 'custom', 'mcp']).describe('chatwire’s own tool, the app’s, or an MCP server’s.'),
      server: z.string().optional().describe('The MCP server’s name, for `source: "mcp"`.'),
    }),
  ),
  unavailable: z
    .array(z.object({ server: z.string(), tool: z.string().optional(), message: z.string() }))
    .describe('MCP servers (or single tools of them) left out right now: unreachable, or a tool whose definition changed.'),
});

type JsonObject = Record<string, unknown>;

/** The `/tools` path item and its component; `errors` are its error answers (only 401: it reads no store). */
export function toolsOpenApi(errors: Record<string, JsonObject>) {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(TOOLS_RESPONSE, { target: 'draft-2020-12', io: 'output' }) as JsonObject;
  return {
    schemas: { ToolList: schema },
    path: {
      get: {
        operationId: 'listTools',
        summary: 'The tools the caller’s turns offer now, each with its source',
        responses: {
          '200': { description: 'Tools', content: { 'application/json': { schema: { $ref: '#/components/schemas/ToolList' } } } },
          ...errors,
        },
      },
    },
  };
}
