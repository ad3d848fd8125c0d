import type { CollectionDefinition } from '@chatwire/storage';

/** Something for the tools to act on: each user's own notes. */
export const NOTES: CollectionDefinition = {
  name: 'notes',
  description: "The signed-in user's notes",
  columns: [
    { name: 'title', type: 'string', required: true, description: 'Short title' },
    { name: 'body', type: 'string', description: 'Free text' },
    { name: 'userId', type: 'string', description: 'Owner (set from the caller)' },
  ],
  ownerField: 'userId',
  rules: { read: 'own', create: 'own', update: 'own', delete: 'own' },
};

/** One row per user (recordId = userId), read by the `user.current` tool; written by the dev sign-in. */
export const USERS: CollectionDefinition = {
  name: 'users',
  description: 'Signed-in users',
  columns: [
    { name: 'userId', type: 'string', required: true },
    { name: 'name', type: 'string', required: true },
  ],
  ownerField: 'userId',
  rules: { read: 'own', create: false, update: false, delete: false },
};
