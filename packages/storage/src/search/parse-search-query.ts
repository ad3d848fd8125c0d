import { ChatwireError } from '../chatwire-error.js';
import { tokenize } from './search-text.js';

/** A word (one entry) or a phrase (several, in order, next to each other); `negated`: must not occur. */
export interface SearchItem {
  words: string[];
  /** The same words as typed (unfolded), for a database that folds them itself. */
  raw: string[];
  negated: boolean;
}

/**
 * A parsed search: rows matching any group; a group matches when every item that is not negated occurs
 * and no negated one does. Every group has at least one item that is not negated.
 */
export interface SearchQuery {
  groups: SearchItem[][];
  /** The folded words of every item that is not negated (what ranks and highlights count), deduplicated. */
  words: string[];
  /**
   * The same query written back in web-search syntax from the words as typed, every item quoted: what
   * PostgreSQL's `websearch_to_tsquery` reads (after its own folding) to match exactly these groups.
   */
  websearch: string;
  /** The words as typed of every item that is not negated, space-separated (the database folds them for ranking). */
  rawWords: string;
}

/** Longest search text, in characters. */
export const MAX_SEARCH_LENGTH = 256;

const invalid = (message: string) => new ChatwireError('VALIDATION', message, { details: { field: 'q' } });

/**
 * Parses web-search syntax as PostgreSQL's `websearch_to_tsquery` reads it: words in any order, `"quoted
 * phrases"`, `-word` or `-"phrase"` to exclude, `or` between alternatives. Words are folded (case and
 * accents ignored); punctuation inside a word (`don't`, `foo-bar`) makes it a phrase of its parts.
 * Throws VALIDATION when the text is empty, longer than 256 characters or has no word to look for.
 */
export function parseSearchQuery(text: unknown): SearchQuery {
  if (typeof text !== 'string' || text.trim() === '') throw invalid('q must be a non-empty string');
  if ([...text].length > MAX_SEARCH_LENGTH) throw invalid(`q must be at most ${MAX_SEARCH_LENGTH} characters`);
  const groups: SearchItem[][] = [];
  let group: SearchItem[] = [];
  const closeGroup = () => {
    if (group.some((item) => !item.negated)) groups.push(group);
    group = [];
  };
  let i = 0;
  let pendingOr = false;
  while (i < text.length) {
    const c = text[i]!;
    if (/\s/u.test(c)) {
      i++;
      continue;
    }
    let negated = false;
    if (c === '-' && i + 1 < text.length && !/\s/u.test(text[i + 1]!)) {
      negated = true;
      i++;
    }
    let chunk: string;
    const quoted = text[i] === '"';
    if (quoted) {
      const close = text.indexOf('"', i + 1);
      const end = close === -1 ? text.length : close;
      chunk = text.slice(i + 1, end);
      i = end + 1;
    } else {
      let end = i;
      while (end < text.length && !/\s/u.test(text[end]!) && text[end] !== '"') end++;
      chunk = text.slice(i, end);
      i = end;
    }
    if (!quoted && !negated && chunk.toLowerCase() === 'or') {
      pendingOr = group.length > 0;
      continue;
    }
    const tokens = tokenize(chunk);
    if (tokens.length === 0) continue;
    if (pendingOr) closeGroup();
    pendingOr = false;
    group.push({ words: tokens.map((t) => t.word), raw: tokens.map((t) => chunk.slice(t.start, t.end)), negated });
  }
  closeGroup();
  if (groups.length === 0) throw invalid('q has no words to search for');
  const positive = groups.flatMap((g) => g.filter((item) => !item.negated));
  const words = [...new Set(positive.flatMap((item) => item.words))];
  const rawWords = [...new Set(positive.flatMap((item) => item.raw))].join(' ');
  const websearch = groups
    .map((g) => g.map((item) => `${item.negated ? '-' : ''}"${item.raw.join(' ')}"`).join(' '))
    .join(' or ');
  return { groups, words, websearch, rawWords };
}
