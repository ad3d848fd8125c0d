const MAX_FILENAME_BYTES = 255;
const encoder = new TextEncoder();

/**
 * A display name from a client's filename: control characters (C0, DEL, C1, bidi overrides and isolates)
 * removed, path separators kept as text (the name never reaches a file system: storage keys are random),
 * whitespace trimmed, cut to at most 255 UTF-8 bytes on a character boundary. Empty: `file`.
 */
export function cleanFilename(name: string | null | undefined): string {
  // eslint-disable-next-line no-control-regex
  const stripped = (name ?? '').normalize('NFC').replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '').trim();
  let out = '';
  let bytes = 0;
  for (const char of stripped) {
    const size = encoder.encode(char).byteLength;
    if (bytes + size > MAX_FILENAME_BYTES) break;
    out += char;
    bytes += size;
  }
  return out.trim() || 'file';
}
