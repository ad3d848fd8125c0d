import { ChatwireError, LONE_SURROGATE } from '@chatwire/storage';

/**
 * What PostgreSQL cannot hold, and how the driver deals with it.
 *
 * - U+0000 cannot be stored in text or jsonb. Inside record data (values and field names) it is escaped
 *   reversibly and order-preservingly: U+0001 is the escape character, U+0000 is stored as U+0001 '0'
 *   and U+0001 as U+0001 '1'. Filters and sort keys use the same escaping, so every string in data is
 *   stored, filtered, ordered and returned verbatim.
 * - In collection names, record ids and lease keys U+0000 is rejected (the access layer never lets it
 *   through anyway).
 * - A lone UTF-16 surrogate cannot be encoded as UTF-8 (it would silently become U+FFFD) and a number
 *   JSON cannot carry (NaN, Infinity, bigint) would change: both are rejected with VALIDATION naming
 *   the field.
 */
export const UNSTORABLE = new RegExp(`\\u0000|${LONE_SURROGATE.source}`);
const NEEDS_ESCAPE = /[\u0000\u0001]/;

function reject(what: string, problem: string, field?: string): never {
  throw new ChatwireError('VALIDATION', `${what} ${problem}, which PostgreSQL cannot store`, {
    details: { reason: 'unstorable-value', ...(field === undefined ? {} : { field }) },
  });
}

/** For names and ids: throws VALIDATION when `text` holds U+0000 or a lone surrogate. */
export function checkText(text: string, what: string, field?: string): void {
  if (UNSTORABLE.test(text)) {
    const problem = text.includes('\u0000') ? 'contains a NUL character (U+0000)' : 'contains an unpaired UTF-16 surrogate';
    reject(what, problem, field);
  }
}

/** A string of record data (value or field name) as stored: escaped, lone surrogates rejected. */
export function encodeText(text: string, what: string, field?: string): string {
  if (LONE_SURROGATE.test(text)) reject(what, 'contains an unpaired UTF-16 surrogate', field);
  return NEEDS_ESCAPE.test(text) ? text.replace(/[\u0000\u0001]/g, (c) => (c === '\u0000' ? '\u00010' : '\u00011')) : text;
}

export function decodeText(text: string): string {
  return text.includes('\u0001') ? text.replace(/\u0001([01])/g, (_, d: string) => (d === '0' ? '\u0000' : '\u0001')) : text;
}

/** Record data as stored: strings and keys escaped (copy-on-write), unstorable values rejected naming the field. */
export function encodeData(value: unknown, what: string, path = ''): unknown {
  const field = () => `${what} field ${JSON.stringify(path)}`;
  if (typeof value === 'string') return encodeText(value, field(), path);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) reject(field(), `is ${String(value)}`, path);
    return value;
  }
  if (typeof value === 'bigint') reject(field(), 'is a bigint', path);
  if (Array.isArray(value)) {
    let out: unknown[] | null = null;
    value.forEach((item, i) => {
      const encoded = encodeData(item, what, `${path}[${i}]`);
      if (encoded !== item) (out ??= [...value])[i] = encoded;
    });
    return out ?? value;
  }
  if (typeof value === 'object' && value !== null) {
    const source = value as Record<string, unknown>;
    const keys = Object.keys(source);
    const entries = keys.map((key) => {
      const child = path === '' ? key : `${path}.${key}`;
      return [encodeText(key, `${what} field name ${JSON.stringify(child)}`, child), encodeData(source[key], what, child)] as const;
    });
    const changed = entries.some(([key, item], i) => key !== keys[i] || item !== source[keys[i] as string]);
    // fromEntries defines own properties, so a `__proto__` field stays a field.
    return changed ? Object.fromEntries(entries) : value;
  }
  return value;
}

/** Inverse of `encodeData`, for data read back (only walks when the stored JSON holds an escape). */
export function decodeData(value: unknown): unknown {
  if (typeof value === 'string') return decodeText(value);
  if (Array.isArray(value)) return value.map(decodeData);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [decodeText(key), decodeData(item)]));
  }
  return value;
}
