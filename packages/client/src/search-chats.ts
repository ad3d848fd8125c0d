import { readJson, type Requester } from './create-requester.js';
import type { MessageRole } from './route-types.js';

/** One hit of `GET /search`: a message, or a chat's title (`messageId` and `role` null). */
export interface SearchResult {
  chatId: string;
  chatTitle: string;
  /** The id the client knows the message by (its `userMessageId`, or the turn's `X-Asst-Id`); null for a title. */
  messageId: string | null;
  role: MessageRole | null;
  createdAt: string;
  /** Plain text around the first match; draw `highlights` yourself (never insert it as HTML). */
  snippet: string;
  /** Matched words as offsets into `snippet` (string indexes, `end` exclusive). */
  highlights: { start: number; end: number }[];
}

export interface SearchPage {
  results: SearchResult[];
  nextCursor: string | null;
}

export interface SearchOptions {
  /** 1-50, default 20. */
  limit?: number;
  /** `nextCursor` of the previous page of the same search. */
  cursor?: string | null;
  /** Only this chat's messages. */
  chatId?: string;
  signal?: AbortSignal;
}

/** `GET /search?q=`: the caller's messages and chat titles matching `q`, best first, then newest. */
export function searchChats(request: Requester, q: string, options: SearchOptions = {}): Promise<SearchPage> {
  const params = new URLSearchParams({ q });
  if (options.limit !== undefined) params.set('limit', String(options.limit));
  if (options.cursor) params.set('cursor', options.cursor);
  if (options.chatId !== undefined) params.set('chatId', options.chatId);
  return request('GET', `/search?${params.toString()}`, options.signal ? { signal: options.signal } : {}).then((res) =>
    readJson<SearchPage>(res, 'GET /search'),
  );
}
