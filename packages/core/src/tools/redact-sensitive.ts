/** Claims that identify or replay the token itself rather than describe the user. */
const SENSITIVE_EXACT = new Set(['jti', 'nonce', 'sid', 'at_hash', 'c_hash', 's_hash', 'cnf', 'azp']);
/** Names that look like secrets anywhere in a key. */
const SENSITIVE_PATTERN = /token|secret|passw|pwd|hash|api[-_]?key|private|credential|session|signature|salt/i;

export function isSensitiveKey(key: string): boolean {
  return SENSITIVE_EXACT.has(key) || SENSITIVE_PATTERN.test(key);
}

/** A shallow copy without sensitive-looking keys (token ids, nonces, hashes, secrets, passwords...). */
export function redactSensitive(values: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) {
    if (!isSensitiveKey(key)) kept[key] = value;
  }
  return kept;
}
