/** Opaque cursors: base64url (no padding) of JSON. Works wherever `btoa`/`TextEncoder` exist (Node, browsers). */
export function encodeCursor(value: unknown): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(JSON.stringify(value))) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Inverse of `encodeCursor`; null when malformed. */
export function decodeCursor(cursor: string): unknown {
  if (typeof cursor !== 'string' || !/^[A-Za-z0-9_-]*$/.test(cursor) || cursor.length % 4 === 1) return null;
  try {
    const binary = atob(cursor.replace(/-/g, '+').replace(/_/g, '/'));
    const text = new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(binary, (ch) => ch.charCodeAt(0)));
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
