/** A real HS256 JWT, signed by hand (node:crypto) so the bench needs no extra dependency. */
import { createHmac } from 'node:crypto';

const b64url = (data: string | Buffer) => Buffer.from(data).toString('base64url');

export function signHs256(claims: Record<string, unknown>, secret: string, ttlSec = 3600): string {
  const now = Math.floor(Date.now() / 1000);
  const header = b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
  const payload = b64url(JSON.stringify({ iat: now, exp: now + ttlSec, ...claims }));
  const signature = createHmac('sha256', secret).update(`${header}.${payload}`).digest('base64url');
  return `${header}.${payload}.${signature}`;
}
