import { ChatwireError, RECORD_ID_PATTERN, type RecordStore } from '@chatwire/storage';
import { AI_CHATS, type ChatData } from '../records/chat-collections.js';
import { AI_SHARES, type ShareData, type SharedMessage } from '../records/share-collection.js';
import { shownMessages } from '../branches/load-chat-tree.js';
import { createShareReadLimiter, type ShareReadLimiter } from './create-share-read-limiter.js';
import { freezeMessages } from './freeze-messages.js';
import { parseCreateShareInput } from './share-input.js';
import { newShareToken, shareIdOf } from './share-token.js';

const DAY_MS = 86_400_000;

/** A share link as its owner sees it. */
export interface Share {
  shareId: string;
  chatId: string;
  title: string;
  messageCount: number;
  createdAt: string;
  /** Null: until revoked or the chat is deleted. */
  expiresAt: string | null;
}

/** What `GET /shared/:token` shows: the frozen copy, without owner or chat ids. */
export interface SharedChat {
  share: { title: string; createdAt: string; expiresAt: string | null };
  messages: SharedMessage[];
}

export interface ShareService {
  /** A new link to the copy of `chatId` as it is now (ownership checked by the caller); the token is returned once. */
  create(userId: string, chatId: string, body: unknown): Promise<{ share: Share; token: string }>;
  /** Deletes the owner's share: its link 404s at once. */
  revoke(userId: string, shareId: string): Promise<void>;
  /** The shared copy, with no auth; every miss (unknown, revoked, expired, chat deleted) is the same 404. */
  read(token: string, clientKey: string): Promise<SharedChat>;
}

/** The one 404 every missing share gets: the same code and message whatever the reason. */
export const SHARE_NOT_FOUND_MESSAGE = 'Share not found';
const notFound = (): ChatwireError => new ChatwireError('NOT_FOUND', SHARE_NOT_FOUND_MESSAGE);

export function createShareService(options: { store: RecordStore; readsPerMinute?: number; now?: () => number }): ShareService {
  const { store } = options;
  const now = options.now ?? (() => Date.now());
  const limit: ShareReadLimiter = createShareReadLimiter(options.readsPerMinute);

  return {
    async create(userId, chatId, body) {
      const { expiresInDays } = parseCreateShareInput(body);
      const server = store.asServer();
      const chat = await server.find<ChatData>(AI_CHATS, chatId);
      if (!chat || chat.data.userId !== userId) throw new ChatwireError('NOT_FOUND', 'Chat not found');
      const messages = freezeMessages(await shownMessages(server, chatId, chat.data.activeLeafId));
      const token = newShareToken();
      const data: ShareData = {
        chatId,
        userId,
        title: chat.data.title,
        messages,
        ...(expiresInDays !== undefined ? { expiresAt: new Date(now() + expiresInDays * DAY_MS).toISOString() } : {}),
      };
      const row = await server.create<ShareData>(AI_SHARES, data, { recordId: shareIdOf(token)! });
      return { share: toShare(row.recordId, row.data, row.createdAt), token };
    },

    async revoke(userId, shareId) {
      if (!RECORD_ID_PATTERN.test(shareId)) throw notFound();
      const server = store.asServer();
      const deleted = await server.transaction(async (tx) => {
        const row = await tx.find<ShareData>(AI_SHARES, shareId);
        if (!row || row.data.userId !== userId) return false;
        await tx.delete(AI_SHARES, shareId);
        return true;
      });
      if (!deleted) throw notFound();
    },

    async read(token, clientKey) {
      await limit(clientKey);
      const id = shareIdOf(token);
      if (id === null) throw notFound();
      const server = store.asServer();
      const row = await server.find<ShareData>(AI_SHARES, id);
      if (!row) throw notFound();
      const { expiresAt } = row.data;
      if (expiresAt !== undefined && Date.parse(expiresAt) <= now()) throw notFound();
      // Deleting the chat deletes its shares in the same transaction; a share made while its chat was being
      // deleted can outlive it, and is found here.
      const chat = await server.find<ChatData>(AI_CHATS, row.data.chatId);
      if (!chat || chat.data.userId !== row.data.userId) throw notFound();
      return { share: { title: row.data.title, createdAt: row.createdAt, expiresAt: expiresAt ?? null }, messages: row.data.messages };
    },
  };
}

function toShare(shareId: string, data: ShareData, createdAt: string): Share {
  return { shareId, chatId: data.chatId, title: data.title, messageCount: data.messages.length, createdAt, expiresAt: data.expiresAt ?? null };
}
