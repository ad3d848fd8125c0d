/** base64url (the URL-safe alphabet: `-` and `_` instead of `+` and `/`, no `=` padding) of UTF-8 text; runs wherever `btoa`/`TextEncoder` exist. */
export function encodeBase64Url(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Inverse of `encodeBase64Url`; null when the input is not base64url of valid UTF-8. */
export function decodeBase64Url(encoded: string): string | null {
  if (!/^[A-Za-z0-9_-]*$/.test(encoded) || encoded.length % 4 === 1) return null;
  try {
    const binary = atob(encoded.replace(/-/g, '+').replace(/_/g, '/'));
    const bytes = Uint8Array.from(binary, (ch) => ch.charCodeAt(0));
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

/** Encodes a JSON value as an opaque cursor. */
export function encodeCursor(value: unknown): string {
  return encodeBase64Url(JSON.stringify(value));
}

/** Decodes an opaque cursor; null when malformed. */
export function decodeCursor(cursor: string): unknown {
  const text = decodeBase64Url(cursor);
  if (text === null) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
