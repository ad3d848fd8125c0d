import type { RecordStore } from '@chatwire/storage';
import { SignJWT } from 'jose';
import { USERS } from './example-collections.js';

export interface DevSignInResult {
  token: string;
  userId: string;
}

const TOKEN_LIFETIME = '12h';

/**
 * The dev-only sign-in: a name becomes a stable user id (`dev-<name>`; no name: a random one), an HS256
 * JWT with `sub`, `name`, `iat`, `exp` signed with the per-start secret, and a `users` row for
 * `user.current`. Never mount this in production: anyone can be anyone.
 */
export function createDevSignIn(secret: string, store: RecordStore) {
  const key = new TextEncoder().encode(secret);
  return async (input: unknown): Promise<DevSignInResult> => {
    const name = readName(input);
    const userId = `dev-${slug(name) || crypto.randomUUID().slice(0, 8)}`;
    const displayName = name || userId;
    const users = store.asServer();
    if (!(await users.find(USERS.name, userId))) {
      await users.create(USERS.name, { userId, name: displayName }, { recordId: userId });
    }
    const token = await new SignJWT({ name: displayName })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(userId)
      .setIssuedAt()
      .setExpirationTime(TOKEN_LIFETIME)
      .sign(key);
    return { token, userId };
  };
}

function readName(input: unknown): string {
  if (typeof input !== 'object' || input === null) return '';
  const name = (input as { name?: unknown }).name;
  return typeof name === 'string' ? name.trim().slice(0, 60) : '';
}

function slug(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40);
}
