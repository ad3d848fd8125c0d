import { createHmac } from 'node:crypto';

// Development sign-in: an HS256 JWT for one demo user. Replace with your auth (any HS256 JWT signed with
// CHATWIRE_JWT_SECRET whose `sub` is the user id, or configure chatwire's `auth` for your provider's JWKS).
const secret = process.env.CHATWIRE_JWT_SECRET ?? 'a-development-secret-of-32-bytes-or-more';
const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

export function POST(): Response {
  const now = Math.floor(Date.now() / 1000);
  const unsigned = `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode({ sub: 'demo-user', iat: now, exp: now + 3600 })}`;
  return new Response(`${unsigned}.${createHmac('sha256', secret).update(unsigned).digest('base64url')}`);
}

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';
