import { randomUUID } from 'node:crypto';
import { createModelRegistry, type ToolSource } from '@chatwire/core';
import { scriptedModel, type Script } from '@chatwire/core/testing';
import { createChatHandler, type ChatHandler } from '@chatwire/server';
import { createRecordStore, type RecordStore } from '@chatwire/storage';
import { createMemoryDriver } from '@chatwire/storage/memory';
import { SignJWT } from 'jose';

/** The secret that verifies callers' tokens (the MCP servers never see tokens signed with it). */
export const CALLER_SECRET = 'caller-secret-that-is-at-least-32-bytes-long';
/** The secret chatwire signs MCP tokens with: a key of its own. */
export const MCP_SECRET = 'mcp-signing-secret-that-is-at-least-32-bytes';

export async function callerToken(userId: string): Promise<string> {
  return new SignJWT({ email: `${userId}@example.com` })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(userId)
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode(CALLER_SECRET));
}

export interface McpChatFixture {
  handler: ChatHandler;
  store: RecordStore;
  /** What the chat service reported through `onError`. */
  errors: unknown[];
  /** Tokens the callers sent (to check that no MCP server ever saw one). */
  tokens: string[];
  request(method: string, path: string, body?: unknown, user?: string): Promise<Response>;
  /** A new chat of `user` and one turn in it: its chunks and whether the stream ended with [DONE]. */
  turn(content?: string, user?: string, chatId?: string): Promise<{ chatId: string; chunks: Record<string, unknown>[]; done: boolean }>;
  /** The tool names the model was offered in each of its calls so far. */
  offered(): string[][];
  /** The tools (name, description, input schema) the model was offered in its last call. */
  lastOffered(): { name: string; description?: string; inputSchema?: unknown }[];
  /** The `ai-turns` rows, server view. */
  turnRows(): Promise<Record<string, unknown>[]>;
}

/** A chat handler whose model plays `scripts` (one per model call) and whose catalog includes `sources`. */
export function mcpChatFixture(scripts: Script[], sources: ToolSource[], options: { store?: RecordStore; allow?: string[] } = {}): McpChatFixture {
  const store = options.store ?? createRecordStore({ driver: createMemoryDriver() });
  const errors: unknown[] = [];
  const tokens: string[] = [];
  const scripted = scriptedModel(scripts);
  const handler = createChatHandler({
    store,
    models: createModelRegistry({ fallbackModel: scripted.model }),
    auth: { secret: CALLER_SECRET },
    summarizerModelId: false,
    tools: { sources, ...(options.allow ? { allow: options.allow } : {}) },
    onError: (error) => errors.push(error),
  });
  const request: McpChatFixture['request'] = async (method, path, body, user = 'alice') => {
    const token = await callerToken(user);
    tokens.push(token);
    return handler(
      new Request(`http://localhost/api/ai${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
    );
  };
  return {
    handler,
    store,
    errors,
    tokens,
    request,
    async turn(content = 'go', user = 'alice', chatId) {
      const id = chatId ?? ((await (await request('POST', '/chats', {}, user)).json()) as { chat: { recordId: string } }).chat.recordId;
      const response = await request('POST', '/chat', { chatId: id, userMessageId: `u-${randomUUID()}`, content }, user);
      const events = (await response.text()).split('\n\n').filter((event) => event.startsWith('data: '));
      const done = events.at(-1) === 'data: [DONE]';
      const chunks = events.filter((event) => event !== 'data: [DONE]').map((event) => JSON.parse(event.slice(6)) as Record<string, unknown>);
      return { chatId: id, chunks, done };
    },
    offered: () => scripted.calls.map((call) => (call.tools ?? []).map((tool) => tool.name)),
    lastOffered: () =>
      (scripted.calls.at(-1)?.tools ?? []).map((tool) => ({
        name: tool.name,
        ...(tool.type === 'function' ? { description: tool.description, inputSchema: tool.inputSchema } : {}),
      })),
    async turnRows() {
      const page = await store.asServer().query('ai-turns', { limit: 100 });
      return page.records.map((record) => record.data);
    },
  };
}
