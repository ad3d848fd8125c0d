import type { FilePartData } from '../records/attachment-collection.js';

/** A stored message's parts with each file part's signed content `url` (the stored row keeps ids only). */
export function withContentUrls<T extends { data: { parts?: unknown[] } }>(message: T, urlFor: (attachmentId: string) => string): T {
  const parts = message.data.parts;
  if (!Array.isArray(parts) || !parts.some((part) => (part as FilePartData)?.type === 'file')) return message;
  const signed = parts.map((part) =>
    (part as FilePartData)?.type === 'file' && typeof (part as FilePartData).attachmentId === 'string'
      ? { ...(part as FilePartData), url: urlFor((part as FilePartData).attachmentId) }
      : part,
  );
  return { ...message, data: { ...message.data, parts: signed } };
}
