import type { ChatService } from '@chatwire/core';
import type { Reply } from '../handler-dispatch.js';
import { jsonReply } from '../json-reply.js';
import type { RouteParams } from './route-params.js';

export const TOOLS_ROUTE = 'tools';

/**
 * `GET /tools`: 200 `{ tools: [{ name, description, source, server? }], unavailable: [{ server, tool?, message }] }`,
 * what a turn of the caller would offer the model right now (MCP servers opened as the caller), each tool with
 * its source (`built-in`, `custom`, or `mcp` with the server's name), and the MCP servers or tools left out.
 */
export function toolsRoutes(service: ChatService): Record<string, Record<string, (params: RouteParams) => Promise<Reply>>> {
  return {
    [TOOLS_ROUTE]: {
      GET: async ({ caller }) => jsonReply(200, await service.listTools(caller)),
    },
  };
}
