/** Keys that could reach an object prototype if some layer copied input by assignment. */
export const FORBIDDEN_KEYS: readonly string[] = ['__proto__', 'constructor', 'prototype'];

const MAX_DEPTH = 32;

/**
 * Describes the first forbidden key anywhere in a JSON-like value (`input.data.__proto__: the key
 * '__proto__' is not allowed`), or a value nested deeper than 32 levels; null when the value is clean.
 * Tool input is checked with this before schema validation, so such input is a `tool-input-error`.
 */
export function findForbiddenKey(value: unknown, path = 'input', depth = 0): string | null {
  if (value === null || typeof value !== 'object') return null;
  if (depth >= MAX_DEPTH) return `${path}: nested deeper than ${MAX_DEPTH} levels`;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findForbiddenKey(value[i], `${path}[${i}]`, depth + 1);
      if (found !== null) return found;
    }
    return null;
  }
  for (const key of Reflect.ownKeys(value)) {
    if (typeof key !== 'string') continue;
    if (FORBIDDEN_KEYS.includes(key)) return `${path}.${key}: the key '${key}' is not allowed`;
    const found = findForbiddenKey((value as Record<string, unknown>)[key], `${path}.${key}`, depth + 1);
    if (found !== null) return found;
  }
  return null;
}
