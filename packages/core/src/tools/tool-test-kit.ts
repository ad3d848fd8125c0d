/**
 * Test helpers for the tool catalog tests (not exported from the package): a scripted
 * `MockLanguageModelV2`, one turn through chatwire's turn engine, and a memory store seeded
 * with two users' rows and the hidden `ai-*` collections.
 */
import type { LanguageModelV2CallOptions, LanguageModelV2StreamPart } from '@ai-sdk/provider';
import { createRecordStore } from '@chatwire/storage';
import type { Caller, CollectionDefinition, QueryPage, RecordAccess } from '@chatwire/storage';
import { createMemoryDriver } from '@chatwire/storage/memory';
import type { ToolSet, UIMessageChunk } from 'ai';
import { MockLanguageModelV2 } from 'ai/test';
import { createChatService } from '../chat/chat-service.js';
import { createModelRegistry } from '../models/create-model-registry.js';
import type { ToolCatalog } from './tool-types.js';

export interface ScriptedToolCall {
  toolName: string;
  /** An object is sent as its JSON text; a string is sent as is (to script invalid JSON). */
  input: unknown;
  toolCallId?: string;
}

export type ScriptedStep = { toolCalls: ScriptedToolCall[] } | { text: string };

const usage = { inputTokens: 1, outputTokens: 1, totalTokens: 2 };

function streamParts(step: ScriptedStep, callIndex: number): LanguageModelV2StreamPart[] {
  if ('text' in step) {
    const id = `t${callIndex}`;
    return [
      { type: 'stream-start', warnings: [] },
      { type: 'text-start', id },
      { type: 'text-delta', id, delta: step.text },
      { type: 'text-end', id },
      { type: 'finish', finishReason: 'stop', usage },
    ];
  }
  return [
    { type: 'stream-start', warnings: [] },
    ...step.toolCalls.map((call, i): LanguageModelV2StreamPart => ({
      type: 'tool-call',
      toolCallId: call.toolCallId ?? `call-${callIndex}-${i}`,
      toolName: call.toolName,
      input: typeof call.input === 'string' ? call.input : JSON.stringify(call.input),
    })),
    { type: 'finish', finishReason: 'tool-calls', usage },
  ];
}

/**
 * A model that answers each call from `script`: an array (one step per call, the last repeated)
 * or a function of the call options and the call index.
 */
export function scriptedModel(
  script: readonly ScriptedStep[] | ((options: LanguageModelV2CallOptions, callIndex: number) => ScriptedStep),
): MockLanguageModelV2 {
  let calls = 0;
  return new MockLanguageModelV2({
    doStream: async (options) => {
      const callIndex = calls++;
      const step =
        typeof script === 'function' ? script(options, callIndex) : (script[Math.min(callIndex, script.length - 1)] as ScriptedStep);
      const parts = streamParts(step, callIndex);
      return {
        stream: new ReadableStream<LanguageModelV2StreamPart>({
          start(controller) {
            for (const part of parts) controller.enqueue(part);
            controller.close();
          },
        }),
      };
    },
  });
}

/**
 * Runs one turn through chatwire's own turn engine (the chat service on a scratch memory store, the
 * scripted model, these tools) and returns every UI message chunk it streamed.
 */
export async function runTurn(model: MockLanguageModelV2, tools: ToolSet): Promise<UIMessageChunk[]> {
  const service = createChatService({
    store: createRecordStore({ driver: createMemoryDriver() }),
    models: createModelRegistry({ fallbackModel: model }),
    tools: { forTurn: () => tools, names: Object.keys(tools) } satisfies ToolCatalog,
    maxRetries: 0,
  });
  const chat = await service.createChat(ALICE);
  const turn = await service.streamTurn(ALICE, { chatId: chat.recordId, userMessageId: 'u1', content: 'hello' });
  const text = await new Response(turn.stream).text();
  return text
    .split('\n\n')
    .filter((event) => event.startsWith('data: {'))
    .map((event) => JSON.parse(event.slice('data: '.length)) as UIMessageChunk);
}

/** The chunks about one tool call. */
export function chunksOf(chunks: readonly UIMessageChunk[], toolCallId: string): UIMessageChunk[] {
  return chunks.filter((chunk) => 'toolCallId' in chunk && chunk.toolCallId === toolCallId);
}

const ownRules = { read: 'own', create: 'own', update: 'own', delete: 'own' } as const;
const chatRules = { read: 'own', create: false, update: 'own', delete: 'own' } as const;

/** Collections of the test world: own-rule notes and tasks, public announcements, admin notes, ai-*. */
export const TEST_COLLECTIONS: CollectionDefinition[] = [
  {
    name: 'notes',
    description: 'Personal notes',
    columns: [
      { name: 'userId', type: 'string', required: true },
      { name: 'title', type: 'string', required: true, description: 'Short title' },
      { name: 'body', type: 'string' },
    ],
    rules: ownRules,
  },
  {
    name: 'tasks',
    ownerField: 'ownerId',
    columns: [
      { name: 'ownerId', type: 'string', required: true },
      { name: 'title', type: 'string', required: true },
      { name: 'done', type: 'boolean' },
    ],
    rules: ownRules,
  },
  {
    name: 'announcements',
    columns: [{ name: 'title', type: 'string', required: true }],
    rules: { read: true, create: false, update: false, delete: false },
  },
  {
    name: 'admin-notes',
    columns: [{ name: 'title', type: 'string', required: true }],
    rules: { read: ['admin'], create: ['admin'], update: ['admin'], delete: ['admin'] },
  },
  {
    name: 'users',
    hidden: true,
    columns: [
      { name: 'name', type: 'string' },
      { name: 'email', type: 'string' },
      { name: 'passwordHash', type: 'string' },
    ],
    rules: { read: false, create: false, update: false, delete: false },
  },
  {
    name: 'ai-chats',
    hidden: true,
    columns: [
      { name: 'userId', type: 'string', required: true },
      { name: 'title', type: 'string' },
    ],
    rules: chatRules,
  },
  {
    name: 'ai-messages',
    hidden: true,
    columns: [
      { name: 'chatId', type: 'string', required: true },
      { name: 'userId', type: 'string', required: true },
      { name: 'role', type: 'string', required: true },
      { name: 'content', type: 'string', required: true },
      { name: 'parts', type: 'array' },
    ],
    rules: chatRules,
  },
];

export const ALICE: Caller = { userId: 'alice', role: 'user', claims: { sub: 'alice', email: 'alice@example.com', jti: 'j-1' } };
export const BOB: Caller = { userId: 'bob', role: 'user', claims: { sub: 'bob' } };

/** A memory store with rows of both users in every collection; record ids are `<owner>-<thing>`. */
export async function seededStore() {
  const store = createRecordStore({ driver: createMemoryDriver(), collections: TEST_COLLECTIONS });
  const server = store.asServer();
  for (const user of ['alice', 'bob']) {
    await server.create('notes', { userId: user, title: `${user} note`, body: `secret of ${user}` }, { recordId: `${user}-note` });
    await server.create('tasks', { ownerId: user, title: `${user} task`, done: false }, { recordId: `${user}-task` });
    await server.create('ai-chats', { userId: user, title: `${user} chat` }, { recordId: `${user}-chat` });
    await server.create(
      'ai-messages',
      { chatId: `${user}-chat`, userId: user, role: 'user', content: `hi from ${user}` },
      { recordId: `${user}-message` },
    );
    await server.create('users', { name: user, email: `${user}@example.com`, passwordHash: 'x' }, { recordId: user });
  }
  await server.create('announcements', { title: 'Welcome' }, { recordId: 'welcome' });
  await server.create('admin-notes', { title: 'Internal' }, { recordId: 'internal' });
  return store;
}

/** Every row of every test collection, read with server rights, as one JSON string. */
export async function snapshotRows(server: RecordAccess): Promise<string> {
  const all: Record<string, unknown[]> = {};
  for (const { name } of TEST_COLLECTIONS) {
    const rows: unknown[] = [];
    let cursor: string | null = null;
    do {
      const page: QueryPage = await server.query(name, cursor === null ? { limit: 100 } : { limit: 100, cursor });
      rows.push(...page.records);
      cursor = page.nextCursor;
    } while (cursor !== null);
    all[name] = rows;
  }
  return JSON.stringify(all);
}
