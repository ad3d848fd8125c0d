/** RFC 6750 `b64token`: the only characters a bearer token may contain. */
const BEARER = /^Bearer[ \t]+([A-Za-z0-9\-._~+/]+=*)$/i;

/**
 * The token of an `Authorization: Bearer <token>` header, or null for anything else (another scheme,
 * no token, more than one word, characters a bearer token cannot contain). The scheme is case-insensitive
 * and surrounding whitespace is ignored.
 */
export function readBearerToken(authorizationHeader: string | null | undefined): string | null {
  if (typeof authorizationHeader !== 'string') return null;
  const match = BEARER.exec(authorizationHeader.trim());
  return match?.[1] ?? null;
}
