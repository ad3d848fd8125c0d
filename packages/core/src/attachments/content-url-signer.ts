import { createHmac, createSecretKey, randomBytes, timingSafeEqual } from 'node:crypto';

export const DEFAULT_CONTENT_URL_TTL_MS = 15 * 60_000;

export interface ContentUrlSigner {
  /** `?expires=<unix seconds>&sig=<base64url HMAC-SHA256 of "id.expires">`. */
  sign(attachmentId: string, now?: number): { expires: number; sig: string };
  /** True when `sig` is this signer's for the id and `expires` has not passed. */
  verify(attachmentId: string, expires: string | null, sig: string | null, now?: number): boolean;
}

/** Signs content URLs with an HMAC key (default: random per process, so URLs last until a restart or their expiry). */
export function createContentUrlSigner(options: { secret?: string | undefined; ttlMs?: number | undefined } = {}): ContentUrlSigner {
  // A KeyObject made once: given raw bytes, every HMAC would prepare the key again.
  const key = createSecretKey(options.secret ? Buffer.from(options.secret, 'utf8') : randomBytes(32));
  const ttlMs = options.ttlMs ?? DEFAULT_CONTENT_URL_TTL_MS;
  const mac = (id: string, expires: number) => createHmac('sha256', key).update(`${id}.${expires}`).digest();
  return {
    sign(attachmentId, now = Date.now()) {
      const expires = Math.ceil((now + ttlMs) / 1000);
      return { expires, sig: mac(attachmentId, expires).toString('base64url') };
    },
    verify(attachmentId, expires, sig, now = Date.now()) {
      if (!expires || !sig || !/^\d{1,12}$/.test(expires)) return false;
      const at = Number(expires);
      if (at * 1000 < now) return false;
      const given = Buffer.from(sig, 'base64url');
      const wanted = mac(attachmentId, at);
      return given.byteLength === wanted.byteLength && timingSafeEqual(given, wanted);
    },
  };
}
