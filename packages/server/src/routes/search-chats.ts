import { AI_CHATS, AI_MESSAGES, type MessageData } from '@chatwire/core';
import { ChatwireError, RECORD_ID_PATTERN, type AccessSearchHit, type Caller, type RecordStore, type SearchHighlight } from '@chatwire/storage';

/** One hit of `GET /search`: a message, or a chat title (`messageId` and `role` null). */
export interface SearchResult {
  chatId: string;
  chatTitle: string;
  /** The id the client knows the message by (its `userMessageId`, or `X-Asst-Id`); null for a title hit. */
  messageId: string | null;
  role: 'user' | 'assistant' | null;
  createdAt: string;
  snippet: string;
  highlights: SearchHighlight[];
}

export interface SearchResponse {
  results: SearchResult[];
  nextCursor: string | null;
}

export const DEFAULT_SEARCH_LIMIT = 20;
export const MAX_SEARCH_LIMIT = 50;

const invalid = (field: string, message: string) => new ChatwireError('VALIDATION', message, { details: { field } });

function parseLimit(raw: string | null): number {
  if (raw === null) return DEFAULT_SEARCH_LIMIT;
  const limit = /^[0-9]{1,3}$/.test(raw) ? Number(raw) : NaN;
  if (!(limit >= 1 && limit <= MAX_SEARCH_LIMIT)) throw invalid('limit', `limit must be an integer from 1 to ${MAX_SEARCH_LIMIT}`);
  return limit;
}

/**
 * The caller's messages and chat titles matching `q` (web-search syntax: words in any order, "phrases",
 * -excluded, or), best first then newest. With `chatId` only that chat's messages (404 when it is not the
 * caller's, malformed ids included). A hit whose chat is gone (deleted while the search ran) is left out.
 */
export async function searchChats(store: RecordStore, caller: Caller, params: URLSearchParams): Promise<SearchResponse> {
  const q = params.get('q');
  if (q === null) throw invalid('q', 'q is required');
  const limit = parseLimit(params.get('limit'));
  const cursor = params.get('cursor');
  const chatId = params.get('chatId');
  const access = store.asCaller(caller);
  // An id no chat can have is answered as one that is not the caller's (the store would name its own field).
  if (chatId !== null && (!RECORD_ID_PATTERN.test(chatId) || (await access.find(AI_CHATS, chatId)) === null)) {
    throw new ChatwireError('NOT_FOUND', `Chat "${chatId}" not found`, { details: { chatId } });
  }
  const sources = chatId === null ? [{ collection: AI_MESSAGES }, { collection: AI_CHATS }] : [{ collection: AI_MESSAGES, filter: { chatId } }];
  const page = await access.search(sources, q, { limit, ...(cursor === null ? {} : { cursor }) });
  const chatIdOf = (hit: AccessSearchHit) => (hit.collection === AI_CHATS ? hit.record.recordId : String(hit.record.data.chatId));
  // The page's chats in one lookup (a chat deleted meanwhile, or not the caller's, is missing: its hits are left out).
  const chats = await access.findMany(AI_CHATS, page.hits.map(chatIdOf));
  const titles = new Map([...chats.values()].map((chat) => [chat.recordId, String(chat.data.title)] as const));
  const results: SearchResult[] = [];
  for (const hit of page.hits) {
    const id = chatIdOf(hit);
    const chatTitle = titles.get(id);
    if (chatTitle === undefined) continue;
    const message = hit.collection === AI_MESSAGES ? (hit.record.data as MessageData) : null;
    results.push({
      chatId: id,
      chatTitle,
      messageId: message ? (typeof message.messageId === 'string' ? message.messageId : hit.record.recordId) : null,
      role: message ? message.role : null,
      createdAt: hit.record.createdAt,
      snippet: hit.snippet,
      highlights: hit.highlights,
    });
  }
  return { results, nextCursor: page.nextCursor };
}
