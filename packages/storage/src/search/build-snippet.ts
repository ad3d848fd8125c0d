import { tokenize } from './search-text.js';

/** Where a query word is in a snippet: UTF-16 offsets (JavaScript string indexes), `end` exclusive. */
export interface SearchHighlight {
  start: number;
  end: number;
}

export interface SearchSnippet {
  snippet: string;
  highlights: SearchHighlight[];
}

/** Longest snippet, in UTF-16 units, ellipses included. */
export const SNIPPET_LENGTH = 160;
/** How much text before the first hit a snippet shows, at most. */
const LEAD = 40;
const ELLIPSIS = '…';
const SPACE = /\s/u;

/**
 * A plain-text excerpt of `text` around the first occurrence of any of `words` (folded, as in a parsed
 * query), whitespace runs collapsed to one space, "…" where the text was cut, with the offsets of every
 * occurrence of those words in it. No markup is added: the client draws the highlights.
 */
export function buildSnippet(text: string, words: readonly string[]): SearchSnippet {
  const wanted = new Set(words);
  const tokens = tokenize(text);
  const hits = tokens.filter((t) => wanted.has(t.word));
  const first = hits[0];
  let from = 0;
  if (first && first.start > LEAD) from = tokens.find((t) => t.start >= first.start - LEAD)?.start ?? first.start;

  let out = from > 0 ? ELLIPSIS : '';
  const at = new Map<number, number>(); // text index -> snippet index
  let space = false;
  let i = from;
  for (; i < text.length; i++) {
    const c = text[i]!;
    if (SPACE.test(c)) {
      space = out.length > 0 && out !== ELLIPSIS;
      continue;
    }
    if (out.length + (space ? 2 : 1) > SNIPPET_LENGTH - 1) break;
    if (space) out += ' ';
    space = false;
    at.set(i, out.length);
    out += c;
  }
  let highlights = hits
    .filter((h) => at.has(h.start) && at.has(h.end - 1))
    .map((h) => ({ start: at.get(h.start)!, end: at.get(h.end - 1)! + 1 }));
  if (i < text.length && text.slice(i).trim() !== '') {
    // Cut: at the last space when that keeps most of the snippet, never inside a surrogate pair.
    let end = out.lastIndexOf(' ');
    if (end < out.length / 2) end = out.length;
    const code = out.charCodeAt(end - 1);
    if (code >= 0xd800 && code <= 0xdbff) end--;
    out = out.slice(0, end) + ELLIPSIS;
    highlights = highlights.filter((h) => h.end <= end);
  }
  return { snippet: out, highlights };
}
