import { describe, expect, it } from 'vitest';
import { MAX_FEEDBACK_COMMENT, parseFeedbackInput } from './feedback-input.js';

const tooLong = { code: 'VALIDATION', message: `'comment' must be at most ${MAX_FEEDBACK_COMMENT} characters`, details: { field: 'comment' } };

describe('parseFeedbackInput', () => {
  it('checks the comment length after trimming: the limit is on the comment stored', () => {
    const comment = 'c'.repeat(MAX_FEEDBACK_COMMENT);
    expect(parseFeedbackInput({ rating: 'up', comment: ` ${comment} ` })).toEqual({ rating: 'up', comment });
    expect(parseFeedbackInput({ rating: 'down', comment: `\n\t${comment}\u00a0 ` })).toEqual({ rating: 'down', comment });
    expect(() => parseFeedbackInput({ rating: 'up', comment: ` ${comment}c ` })).toThrow(expect.objectContaining(tooLong));
  });

  it('stores no comment for an empty or blank one, and keeps the inner spaces of the rest', () => {
    expect(parseFeedbackInput({ rating: 'up', comment: '' })).toEqual({ rating: 'up' });
    expect(parseFeedbackInput({ rating: 'up', comment: ' '.repeat(MAX_FEEDBACK_COMMENT + 10) })).toEqual({ rating: 'up' });
    expect(parseFeedbackInput({ rating: 'up', comment: '  too  slow ' })).toEqual({ rating: 'up', comment: 'too  slow' });
    expect(parseFeedbackInput({ rating: 'down' })).toEqual({ rating: 'down' });
  });

  it('names the field of a bad body', () => {
    expect(() => parseFeedbackInput({ rating: 'up', comment: 5 })).toThrow(
      expect.objectContaining({ code: 'VALIDATION', message: "'comment' must be a string, got number", details: { field: 'comment' } }),
    );
    expect(() => parseFeedbackInput({ rating: 'meh' })).toThrow(expect.objectContaining({ code: 'VALIDATION', details: { field: 'rating' } }));
  });
});
