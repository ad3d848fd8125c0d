const KEY_PREFIX = 'chatwire.example.chat.';

/** The chat a user had open, kept per user in localStorage so a reload (or a bare URL) reopens it. */
export function loadLastChat(userId: string | null): string | null {
  return userId ? localStorage.getItem(KEY_PREFIX + userId) : null;
}

export function saveLastChat(userId: string | null, chatId: string | null): void {
  if (!userId) return;
  if (chatId) localStorage.setItem(KEY_PREFIX + userId, chatId);
  else localStorage.removeItem(KEY_PREFIX + userId);
}
