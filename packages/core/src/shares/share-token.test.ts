import { describe, expect, it } from 'vitest';
import { newShareToken, shareIdOf } from './share-token.js';

describe('share tokens', () => {
  it('are 128 random bits in 22 base64url characters; the stored id is their SHA-256, and nothing else has one', () => {
    const tokens = new Set(Array.from({ length: 1000 }, () => newShareToken()));
    expect(tokens.size).toBe(1000);
    for (const token of tokens) {
      expect(token).toMatch(/^[A-Za-z0-9_-]{22}$/);
      expect(Buffer.from(token, 'base64url')).toHaveLength(16);
      expect(shareIdOf(token)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    }
    expect(shareIdOf('A'.repeat(22))).not.toBe(shareIdOf('B'.repeat(22)));
    for (const bad of ['', 'short', 'A'.repeat(23), `${'A'.repeat(21)}=`, `${'A'.repeat(21)}/`, 'A'.repeat(10_000)]) expect(shareIdOf(bad)).toBeNull();
  });
});
