import { z } from 'zod';
import type { RecordAccess, RecordEnvelope } from '@chatwire/storage';
import { redactSensitive } from './redact-sensitive.js';
import type { ChatwireTool } from './tool-types.js';

export type UserCurrentOutput =
  | {
      userId: string;
      role: string | null;
      /** The caller's row of `usersCollection` (recordId = userId), sensitive-looking fields removed. */
      source: 'record';
      record: RecordEnvelope;
    }
  | {
      userId: string;
      role: string | null;
      /** No users collection or no row for the caller: the verified token claims, sensitive ones removed. */
      source: 'claims';
      claims: Record<string, unknown>;
    };

export interface UserCurrentSettings {
  /** Collection holding one row per user with `recordId === userId`. */
  usersCollection?: string | undefined;
  /** Server access used for that single lookup (the users collection is usually not readable by callers). */
  serverRecords?: (() => RecordAccess) | undefined;
}

const inputSchema = z.strictObject({}).describe('No input: pass an empty object.');

/** `user.current`: who the signed-in user is. */
export function createUserCurrentTool(settings: UserCurrentSettings): ChatwireTool<z.infer<typeof inputSchema>, UserCurrentOutput> {
  return {
    description:
      'Get the signed-in user: {userId, role, source, record} from the users collection, or {userId, role, source, ' +
      'claims} from their sign-in token when there is no user record. Use it for the user\'s name, email or id.',
    inputSchema,
    async execute(_input, { caller }) {
      const base = { userId: caller.userId, role: caller.role ?? null };
      if (settings.usersCollection !== undefined && settings.serverRecords !== undefined) {
        // Server rights, but only ever this one row: the caller's own.
        const row = await settings.serverRecords().find(settings.usersCollection, caller.userId);
        if (row !== null) return { ...base, source: 'record', record: { ...row, data: redactSensitive(row.data) } };
      }
      return { ...base, source: 'claims', claims: redactSensitive(caller.claims ?? { sub: caller.userId }) };
    },
  };
}
