import { createHash, randomBytes } from 'node:crypto';

/** 128 random bits, base64url: 22 characters. */
const TOKEN = /^[A-Za-z0-9_-]{22}$/;

/** A new share token: 128 bits from the system's CSPRNG, base64url (22 characters). Shown once, never stored. */
export function newShareToken(): string {
  return randomBytes(16).toString('base64url');
}

/**
 * The share's recordId for a token: the base64url SHA-256 of the token (43 characters). Only this is stored,
 * so a leaked database does not hold working links. Null for anything that is not a token's shape (it is
 * then looked up nowhere).
 */
export function shareIdOf(token: string): string | null {
  return TOKEN.test(token) ? createHash('sha256').update(token, 'utf8').digest('base64url') : null;
}
