import type { CollectionDefinition } from '@chatwire/storage';

/** Read-only share links: a frozen copy of a chat, found by the SHA-256 of its token. */
export const AI_SHARES = 'ai-shares';

/**
 * One row per share link. Its recordId is the base64url SHA-256 of the link's token (the token itself is
 * never stored), so a link is looked up by key. `messages` is the copy of the chat taken when the link was
 * made, tool calls reduced to their names. Revoking deletes the row; deleting the chat deletes its shares
 * in the same transaction.
 */
export const AI_SHARES_SCHEMA: CollectionDefinition = {
  name: AI_SHARES,
  description: 'Read-only share links of chats (written only through the share routes).',
  hidden: true,
  rules: { read: 'own', create: false, update: false, delete: false },
  columns: [
    { name: 'chatId', type: 'string', required: true },
    { name: 'userId', type: 'string', required: true },
    { name: 'title', type: 'string', required: true },
    { name: 'messages', type: 'array', required: true, description: 'The frozen copy: [{ id, role, content, parts, createdAt }].' },
    { name: 'expiresAt', type: 'string', description: 'ISO 8601; absent: never expires.' },
  ],
};

/** One message of a share's frozen copy. */
export interface SharedMessage extends Record<string, unknown> {
  id: string;
  role: 'user' | 'assistant';
  content: string;
  parts: unknown[];
  createdAt: string;
}

export interface ShareData extends Record<string, unknown> {
  chatId: string;
  userId: string;
  title: string;
  messages: SharedMessage[];
  expiresAt?: string;
}
