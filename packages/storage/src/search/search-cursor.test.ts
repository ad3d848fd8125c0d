import { describe, expect, it } from 'vitest';
import { encodeCursor } from '../base64url.js';
import { decodeSearchCursor, encodeSearchCursor } from './search-cursor.js';

const malformed = { code: 'VALIDATION', message: 'malformed search cursor', details: { field: 'cursor' } };

describe('search cursor', () => {
  it('decodes what it encodes, up to the largest bigint seq', () => {
    for (const position of [
      { rank: 0, seq: '1' },
      { rank: 7, seq: '123456789' },
      { rank: Number.MAX_SAFE_INTEGER, seq: '9223372036854775807' },
    ]) {
      expect(decodeSearchCursor(encodeSearchCursor(position))).toEqual(position);
    }
  });

  it('refuses a seq past the bigint range as a malformed cursor, like any other forged one', () => {
    for (const s of ['9223372036854775808', '9300000000000000000', '9999999999999999999', '10000000000000000000']) {
      expect(() => decodeSearchCursor(encodeCursor({ r: 1, s })), s).toThrow(expect.objectContaining(malformed));
    }
  });

  it('refuses a rank the encoder never writes, and anything that is not a cursor', () => {
    const forged = [
      encodeCursor({ r: -1, s: '1' }),
      encodeCursor({ r: 1.5, s: '1' }),
      encodeCursor({ r: 2 ** 53, s: '1' }),
      encodeCursor({ r: '1', s: '1' }),
      encodeCursor({ r: 1, s: 1 }),
      encodeCursor({ r: 1, s: '-1' }),
      encodeCursor({ r: 1, s: '' }),
      encodeCursor({ s: '1' }),
      encodeCursor(null),
      'nope!',
    ];
    for (const cursor of forged) expect(() => decodeSearchCursor(cursor), cursor).toThrow(expect.objectContaining(malformed));
  });
});
