import type { RecordData } from '../record-envelope.js';

/**
 * The data fields full-text search reads: a row's searchable text is its `title` and its `content` (string
 * values only), joined by a space, cut to the first `MAX_SEARCH_CHARS` characters.
 */
export const SEARCH_FIELDS = ['title', 'content'] as const;

/** Text past this many characters is not indexed (PostgreSQL caps a tsvector at 1 MB). */
export const MAX_SEARCH_CHARS = 100_000;

/** Positions past this are all this one (as in a PostgreSQL tsvector). */
export const MAX_SEARCH_POSITION = 16_383;

/** At most this many positions are kept per word and row (as in a PostgreSQL tsvector). */
export const MAX_WORD_POSITIONS = 255;

/** A word longer than this many UTF-8 bytes is not indexed (PostgreSQL's parser skips it). */
const MAX_WORD_BYTES = 2047;

/** The searchable text of a row, or null when it has none. */
export function searchTextOf(data: RecordData): string | null {
  const parts: string[] = [];
  for (const field of SEARCH_FIELDS) {
    const value = data[field];
    if (typeof value === 'string') parts.push(value);
  }
  if (parts.length === 0) return null;
  const text = parts.join(' ');
  return text.length > MAX_SEARCH_CHARS ? [...text].slice(0, MAX_SEARCH_CHARS).join('') : text;
}

/** Letters PostgreSQL's `unaccent` rewrites that Unicode decomposition leaves alone. */
const SPECIAL: Readonly<Record<string, string>> = {
  ß: 'ss', ẞ: 'ss', æ: 'ae', Æ: 'ae', œ: 'oe', Œ: 'oe', ø: 'o', Ø: 'o', ł: 'l', Ł: 'l',
  đ: 'd', Đ: 'd', ð: 'd', Ð: 'd', þ: 'th', Þ: 'th', ı: 'i', ĸ: 'q',
};
const SPECIAL_RE = /[ßẞæÆœŒøØłŁđĐðÐþÞıĸ]/g;
const MARKS = /\p{M}+/gu;
const ASCII_WORD = /^[a-z0-9]*$/;

/** A word as search compares it: accents removed (as `unaccent` does), lower case. */
export function foldWord(word: string): string {
  if (ASCII_WORD.test(word)) return word;
  const lower = word.toLowerCase();
  if (ASCII_WORD.test(lower)) return lower;
  return lower.normalize('NFD').replace(MARKS, '').replace(SPECIAL_RE, (c) => SPECIAL[c] ?? c).toLowerCase();
}

/** One word of a text: where it is (UTF-16 offsets) and its folded form. */
export interface SearchToken {
  start: number;
  end: number;
  word: string;
}

const WORD = /[\p{L}\p{N}\p{M}]+/gu;

function utf8Bytes(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    bytes += c < 0x80 ? 1 : c < 0x800 ? 2 : c >= 0xd800 && c <= 0xdbff ? (i++, 4) : 3;
  }
  return bytes;
}

/**
 * The words of a text: runs of letters, digits and combining marks; anything else separates words (so
 * "don't" is "don" and "t", "foo-bar" is "foo" and "bar").
 */
export function tokenize(text: string): SearchToken[] {
  const tokens: SearchToken[] = [];
  for (const match of text.matchAll(WORD)) {
    const raw = match[0];
    if (raw.length * 3 > MAX_WORD_BYTES && utf8Bytes(raw) > MAX_WORD_BYTES) continue;
    const word = foldWord(raw);
    if (word === '') continue;
    tokens.push({ start: match.index, end: match.index + raw.length, word });
  }
  return tokens;
}
