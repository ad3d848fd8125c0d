/**
 * A chatwire process of its own (started by `forkMcpChatProcess`): a chat handler whose tools come from
 * `mcpToolSourceFromEnv(process.env)` (`CHATWIRE_MCP_SERVERS`, `CHATWIRE_MCP_JWT_SECRET`; tool lists read
 * every turn) and whose scripted model calls `mcp_tickets_find` once, then answers with text. The parent
 * asks for turns over IPC and gets what each turn showed.
 */
import { textStep, toolStep } from '@chatwire/core/testing';
import { mcpToolSourceFromEnv } from '../mcp-tool-source-from-env.js';
import { mcpChatFixture } from './mcp-chat-fixture.js';

export type ChatProcessCommand = { type: 'turn'; user: string; content: string };
export interface ChatProcessTurn {
  type: 'turn';
  done: boolean;
  /** The outputs of the turn's tool calls. */
  outputs: unknown[];
  /** The tools the model was offered in the turn's last call. */
  offered: { name: string; description?: string; inputSchema?: unknown }[];
  /** The messages of what went to `onError` during the turn. */
  errors: string[];
}
export type ChatProcessReply = { type: 'ready'; pid: number } | ChatProcessTurn | { type: 'failed'; message: string };

const source = mcpToolSourceFromEnv(process.env, { listCacheMs: 0 });
if (source === null) throw new Error('CHATWIRE_MCP_SERVERS is not set');
const f = mcpChatFixture([toolStep('mcp_tickets_find', { query: 'printer' }), textStep('found')], [source]);
const reply = (message: ChatProcessReply) => process.send!(message);

process.on('message', (command: ChatProcessCommand) => {
  const errorsBefore = f.errors.length;
  f.turn(command.content, command.user).then(
    ({ chunks, done }) =>
      reply({
        type: 'turn',
        done,
        outputs: chunks.filter((chunk) => chunk.type === 'tool-output-available').map((chunk) => chunk.output),
        offered: f.lastOffered(),
        errors: f.errors.slice(errorsBefore).map((error) => (error instanceof Error ? error.message : String(error))),
      }),
    (error: unknown) => reply({ type: 'failed', message: error instanceof Error ? error.message : String(error) }),
  );
});
process.on('disconnect', () => process.exit(0));
reply({ type: 'ready', pid: process.pid });
