import { ChatwireError } from '@chatwire/storage';

/**
 * `CHATWIRE_MODEL_MAP` ("chatwire-id=vendor-id,...") to `{ chatwireId: vendorId }`. Blank entries (a trailing
 * comma) are skipped; an entry without exactly one `=`, with an empty side, with blanks inside an id, or an id
 * mapped twice is a CONFIGURATION error naming the entry. Whether each chatwire id exists is checked by the
 * registry, which knows the allow-list.
 */
export function parseModelMap(text: string, source = 'CHATWIRE_MODEL_MAP'): Record<string, string> {
  const map: Record<string, string> = {};
  for (const raw of text.split(',')) {
    const entry = raw.trim();
    if (entry === '') continue;
    const parts = entry.split('=');
    if (parts.length !== 2) {
      const problem = parts.length < 2 ? "has no '='" : "has more than one '='";
      throw configError(source, `entry '${entry}' ${problem}; expected chatwire-id=vendor-id`);
    }
    const chatwireId = parts[0]!.trim();
    const vendorId = parts[1]!.trim();
    if (chatwireId === '') throw configError(source, `entry '${entry}' has an empty chatwire id`);
    if (vendorId === '') throw configError(source, `entry '${entry}' has an empty vendor id`);
    if (/\s/.test(chatwireId) || /\s/.test(vendorId)) throw configError(source, `entry '${entry}' has a blank inside an id`);
    if (Object.hasOwn(map, chatwireId)) throw configError(source, `'${chatwireId}' is mapped twice`);
    map[chatwireId] = vendorId;
  }
  return map;
}

export function configError(source: string, problem: string): ChatwireError {
  return new ChatwireError('CONFIGURATION', `${source}: ${problem}`, { details: { option: source } });
}
