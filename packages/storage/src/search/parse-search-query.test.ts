import { describe, expect, it } from 'vitest';
import { ChatwireError } from '../chatwire-error.js';
import { parseSearchQuery } from './parse-search-query.js';

const groups = (q: string) =>
  parseSearchQuery(q).groups.map((g) => g.map((item) => `${item.negated ? '-' : ''}${item.words.join('+')}`));

describe('parseSearchQuery', () => {
  it('reads web-search syntax: words, "phrases", -excluded, or', () => {
    expect(groups('Crème  BRÛLÉE')).toEqual([['creme', 'brulee']]);
    expect(groups('"capital of France" paris')).toEqual([['capital+of+france', 'paris']]);
    expect(groups('budget -"capital gains" or recipe')).toEqual([['budget', '-capital+gains'], ['recipe']]);
    expect(groups("don't foo-bar")).toEqual([['don+t', 'foo+bar']]);
    expect(groups('or paris or or')).toEqual([['paris']]);
    expect(groups('"unclosed phrase')).toEqual([['unclosed+phrase']]);
    expect(groups('paris or -cold')).toEqual([['paris']]); // a group of exclusions alone would match everything
  });

  it('writes the query back for websearch_to_tsquery, every item quoted, words as typed', () => {
    const parsed = parseSearchQuery('Crème -"a b" or \'x\' & | ! :*');
    expect(parsed.websearch).toBe('"Crème" -"a b" or "x"');
    expect(parsed.words).toEqual(['creme', 'x']);
    expect(parsed.rawWords).toBe('Crème x');
  });

  it('folds what unaccent folds beyond combining marks', () => {
    expect(parseSearchQuery('Straße Ærø Łódź ÉCOLE').words).toEqual(['strasse', 'aero', 'lodz', 'ecole']);
  });

  it.each([[''], ['   '], ['x'.repeat(257)], ['"" - or --'], ['-paris'], ['or'], ['!!! ...'], [42], [null]])('refuses %j with VALIDATION on q', (q) => {
    let error: unknown;
    try {
      parseSearchQuery(q);
    } catch (caught) {
      error = caught;
    }
    expect(ChatwireError.is(error, 'VALIDATION')).toBe(true);
    expect((error as ChatwireError).details).toEqual({ field: 'q' });
  });

  it('takes 256 characters, counted as characters not UTF-16 units', () => {
    expect(parseSearchQuery('a'.repeat(256)).words).toEqual(['a'.repeat(256)]);
    expect(parseSearchQuery('😀'.repeat(255) + 'a').words).toEqual(['a']);
  });
});
