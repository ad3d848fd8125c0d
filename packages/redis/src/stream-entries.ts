import { RESP_TYPES } from 'redis';

/** Replies with every string as a Buffer and every map as a flat array: raw bytes, one shape for RESP2 and RESP3. */
export const RAW_REPLIES = { [RESP_TYPES.BLOB_STRING]: Buffer, [RESP_TYPES.SIMPLE_STRING]: Buffer, [RESP_TYPES.MAP]: Array } as const;

export interface StreamEntry {
  id: string;
  /** Field names and values in order. */
  fields: Map<string, Buffer>;
}

const toEntry = (raw: unknown): StreamEntry | undefined => {
  if (!Array.isArray(raw) || raw.length < 2) return undefined;
  const [id, list] = raw as [unknown, unknown];
  const fields = new Map<string, Buffer>();
  if (Array.isArray(list)) {
    for (let i = 0; i + 1 < list.length; i += 2) fields.set(String(list[i]), list[i + 1] as Buffer);
  }
  return { id: String(id), fields };
};

/** The entries of an XRANGE/XREVRANGE reply. */
export function rangeEntries(reply: unknown): StreamEntry[] {
  if (!Array.isArray(reply)) return [];
  return reply.map(toEntry).filter((e): e is StreamEntry => e !== undefined);
}

/**
 * The entries of an XREAD reply on one stream: `null` (nothing new), RESP3 `[key, entries]` (a map read as
 * a flat array), or RESP2 `[[key, entries]]`.
 */
export function xreadEntries(reply: unknown): StreamEntry[] {
  if (!Array.isArray(reply) || reply.length === 0) return [];
  const first = reply[0];
  return rangeEntries(Array.isArray(first) ? first[1] : reply[1]);
}
