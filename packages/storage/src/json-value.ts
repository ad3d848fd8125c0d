/** Small helpers for the JSON values records hold. */

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * Describes why `value` is not plain JSON (null, boolean, finite number, string, array, plain object),
 * or returns null when it is. `undefined` object properties are allowed (they are dropped).
 */
export function jsonProblem(value: unknown, depth = 0): string | null {
  if (depth > 64) return 'nested deeper than 64 levels';
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return null;
  if (typeof value === 'number') return Number.isFinite(value) ? null : `${String(value)} is not a finite number`;
  if (Array.isArray(value)) {
    for (const item of value) {
      if (item === undefined) return 'arrays cannot hold undefined';
      const problem = jsonProblem(item, depth + 1);
      if (problem) return problem;
    }
    return null;
  }
  if (isPlainObject(value)) {
    for (const key in value) {
      const item = value[key];
      if (item === undefined) continue;
      const problem = jsonProblem(item, depth + 1);
      if (problem) return problem;
    }
    return null;
  }
  return `a ${typeof value === 'object' ? (value.constructor?.name ?? 'object') : typeof value} is not a JSON value`;
}

/**
 * Deep copy of a JSON value (strings are shared, `undefined` properties dropped). A `__proto__` key (as
 * `JSON.parse` makes it) stays an own data field: assigning it would set the copy's prototype instead,
 * turning the attacker's object into inherited fields that the next copy stores as real ones.
 */
export function cloneJson<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map((item: unknown) => cloneJson(item)) as T;
  const out: Record<string, unknown> = {};
  for (const key in value) {
    const item = (value as Record<string, unknown>)[key];
    if (item === undefined) continue;
    if (key === '__proto__') {
      Object.defineProperty(out, key, { value: cloneJson(item), enumerable: true, writable: true, configurable: true });
    } else out[key] = cloneJson(item);
  }
  return out as T;
}

/** Structural equality of JSON values; object key order does not matter, `undefined` properties are ignored. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((item, i) => jsonEqual(item, b[i]));
  }
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  const ka = Object.keys(ra).filter((k) => ra[k] !== undefined);
  const kb = Object.keys(rb).filter((k) => rb[k] !== undefined);
  return ka.length === kb.length && ka.every((k) => k in rb && jsonEqual(ra[k], rb[k]));
}

/** UTF-8 byte length of a string, without allocating. */
export function utf8ByteLength(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/** Size of a value once stored as JSON, in UTF-8 bytes. */
export function jsonByteLength(value: unknown): number {
  return utf8ByteLength(JSON.stringify(value) ?? '');
}

/** JSON with sorted object keys: equal values give equal strings. */
export function canonicalJson(value: unknown): string {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).filter((k) => record[k] !== undefined).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(record[k])}`).join(',')}}`;
}
