import type { CollectionDefinition } from '@chatwire/storage';
import { AI_FEEDBACK_SCHEMA } from './feedback-collection.js';
import { AI_SHARES_SCHEMA } from './share-collection.js';

/** Collection names of the chat records (DESIGN.md "Persistence"). */
export const AI_CHATS = 'ai-chats';
export const AI_MESSAGES = 'ai-messages';
export const AI_TURNS = 'ai-turns';
/** The usage ledger: one row per user, UTC day and model (see `limits/add-to-usage-ledger.ts`). */
export const AI_USAGE = 'ai-usage';

const ownRules = { read: 'own', create: false, update: 'own', delete: 'own' } as const;

/** Spec 2.2: one row per chat. `create: false`: only the chat routes create chats (server rights). */
export const AI_CHATS_SCHEMA: CollectionDefinition = {
  name: AI_CHATS,
  description: 'Chat conversations (written only through the chat routes).',
  hidden: true,
  rules: ownRules,
  columns: [
    { name: 'userId', type: 'string', required: true, description: 'Owner (JWT subject).' },
    { name: 'title', type: 'string', required: true, maxLength: 500 },
    { name: 'titleSource', type: 'string', description: "'default' (replaceable), 'user' or 'generated'. Absent: 'default' when the title is 'New chat', else 'user'." },
    { name: 'activeLeafId', type: 'string', description: 'Tree history: the recordId of the last message of the path the chat shows.' },
  ],
};

/** Spec 2.3: one row per message. `create: false` so nobody can forge an assistant row (spec 2.4). */
export const AI_MESSAGES_SCHEMA: CollectionDefinition = {
  name: AI_MESSAGES,
  description: 'Chat messages (written only when a turn completes).',
  hidden: true,
  rules: ownRules,
  columns: [
    { name: 'chatId', type: 'string', required: true },
    { name: 'userId', type: 'string', required: true },
    { name: 'role', type: 'string', required: true, description: "'user' or 'assistant'" },
    { name: 'content', type: 'string', required: true },
    { name: 'parts', type: 'array', description: 'UI-shaped parts (text, tool invocations) for rendering.' },
    {
      name: 'status',
      type: 'string',
      description: "Assistant rows: 'complete', 'stopped' by the stop route, or 'awaiting-approval' (tool calls wait for the user). Absent reads as complete.",
    },
    {
      name: 'messageId',
      type: 'string',
      description: "User rows: the client's userMessageId (the recordId is derived from it and the owner, see message-record-id.ts).",
    },
    { name: 'parentId', type: 'string', description: 'Tree history: the recordId of the message this one answers or follows (null: a first message; absent: the row stored before it).' },
  ],
};

/** The per-turn metadata row: model, usage, steps, tool calls, timing and the compaction summary. */
export const AI_TURNS_SCHEMA: CollectionDefinition = {
  name: AI_TURNS,
  description: 'Per-turn metadata (model, usage, compaction).',
  hidden: true,
  rules: { read: 'own', create: false, update: false, delete: 'own' },
  columns: [
    { name: 'chatId', type: 'string', required: true },
    { name: 'userId', type: 'string', required: true },
    { name: 'userMessageId', type: 'string', required: true },
    { name: 'assistantMessageId', type: 'string', required: true },
    { name: 'trigger', type: 'string', description: "'submit', 'edit' or 'regenerate' (a turn continued after approvals keeps its first trigger)." },
    { name: 'modelId', type: 'string', required: true },
    { name: 'provider', type: 'string', required: true },
    { name: 'finishReason', type: 'string', required: true },
    { name: 'usage', type: 'object', required: true },
    { name: 'steps', type: 'number', required: true },
    { name: 'toolCalls', type: 'array', required: true },
    { name: 'durationMs', type: 'number', required: true },
    { name: 'compaction', type: 'object' },
    { name: 'toolSourceErrors', type: 'array', description: '[{ server, tool?, message }]: MCP servers or tools left out of this turn.' },
    { name: 'summary', type: 'object', description: '{ text, throughId } when this turn produced a summary.' },
    {
      name: 'pendingApproval',
      type: 'object',
      description: "The paused step while tool calls wait for the user's approval (prompt messages, step content, the calls, steps and usage so far).",
    },
    { name: 'approvals', type: 'array', description: '[{ toolCallId, toolName, approved, reason?, userId, decidedAt, by }]: the answers to its tool calls.' },
    { name: 'trace', type: 'object', description: '{ traceId, spanId } of the turn span, when telemetry recorded one.' },
    {
      name: 'usageCounted',
      type: 'boolean',
      description: "true: this turn's tokens are in the usage ledger (`ai-usage`). Absent on rows stored before the ledger existed.",
    },
  ],
};

/**
 * The usage ledger (`GET /usage`, the token quota): a user's turns and tokens per UTC day and model,
 * added to in the transaction that stores each turn. A spend ledger: deleting a chat, or replacing a turn
 * by an edit or a regenerate, never takes tokens out of it. Nobody but the server writes or deletes it.
 */
export const AI_USAGE_SCHEMA: CollectionDefinition = {
  name: AI_USAGE,
  description: 'Tokens spent per user, UTC day and model (written only when a turn is stored).',
  hidden: true,
  rules: { read: 'own', create: false, update: false, delete: false },
  columns: [
    { name: 'userId', type: 'string', required: true },
    { name: 'date', type: 'string', required: true, description: 'UTC day as YYYY-MM-DD (of the turn rows counted).' },
    { name: 'modelId', type: 'string', required: true },
    { name: 'turns', type: 'number', required: true },
    { name: 'inputTokens', type: 'number', required: true },
    { name: 'outputTokens', type: 'number', required: true },
    { name: 'totalTokens', type: 'number', required: true },
    { name: 'lastTurnId', type: 'string', required: true, description: 'The turn added last (adding it again changes nothing).' },
  ],
};

export const CHAT_COLLECTIONS: readonly CollectionDefinition[] = [
  AI_CHATS_SCHEMA,
  AI_MESSAGES_SCHEMA,
  AI_TURNS_SCHEMA,
  AI_USAGE_SCHEMA,
  AI_FEEDBACK_SCHEMA,
  AI_SHARES_SCHEMA,
];

export interface ChatData extends Record<string, unknown> {
  userId: string;
  title: string;
  /** Who set the title: nobody yet (a generated title may replace it), the user, or the title model. */
  titleSource?: 'default' | 'user' | 'generated';
  /** Tree history: the last message of the path the chat shows. */
  activeLeafId?: string;
}

export interface MessageData extends Record<string, unknown> {
  chatId: string;
  userId: string;
  role: 'user' | 'assistant';
  content: string;
  parts?: unknown[];
  status?: 'complete' | 'stopped' | 'awaiting-approval';
  /** User rows: the client's `userMessageId` (their recordId is that id, or owner-scoped when another user holds it: see message-record-id.ts). */
  messageId?: string;
  /** Tree history: the parent's recordId (null: a first message; absent: the row stored before it). */
  parentId?: string | null;
}

/** The flat chat object of the HTTP contract. */
export interface Chat {
  recordId: string;
  userId: string;
  title: string;
  createdAt: string;
  updatedAt: string;
}
