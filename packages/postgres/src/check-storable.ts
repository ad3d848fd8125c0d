import { ChatwireError } from '@chatwire/storage';

/**
 * PostgreSQL text and jsonb cannot hold U+0000, and a lone UTF-16 surrogate cannot be encoded as UTF-8
 * (it would silently become U+FFFD). Such strings, and numbers JSON cannot carry (NaN, Infinity,
 * bigint), are rejected with a VALIDATION error naming the field instead of reaching the database.
 * Every other value is stored and returned verbatim.
 */
// eslint-disable-next-line no-control-regex
export const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function reject(what: string, problem: string): never {
  throw new ChatwireError('VALIDATION', `${what} ${problem}, which PostgreSQL cannot store`, {
    details: { reason: 'unstorable-value' },
  });
}

/** Throws VALIDATION when `text` cannot be stored; `what` names it, e.g. `collection "notes" record id`. */
export function checkText(text: string, what: string): void {
  if (UNSTORABLE.test(text)) {
    reject(what, text.includes('\u0000') ? 'contains a NUL character (U+0000)' : 'contains an unpaired UTF-16 surrogate');
  }
}

/** Walks a JSON-like value (keys and strings) and rejects what cannot be stored, naming the field path. */
export function checkValue(value: unknown, what: string, path: string): void {
  const field = () => `${what} field ${JSON.stringify(path)}`;
  if (typeof value === 'string') {
    checkText(value, field());
  } else if (typeof value === 'number') {
    if (!Number.isFinite(value)) reject(field(), `is ${String(value)}`);
  } else if (typeof value === 'bigint') {
    reject(field(), 'is a bigint');
  } else if (Array.isArray(value)) {
    value.forEach((item, index) => checkValue(item, what, `${path}[${index}]`));
  } else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      const child = path === '' ? key : `${path}.${key}`;
      checkText(key, `${what} field name ${JSON.stringify(child)}`);
      checkValue(item, what, child);
    }
  }
}
