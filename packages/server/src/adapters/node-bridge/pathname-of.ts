/** The pathname of a request target (`/a/b?x=1` -> `/a/b`), without decoding it. */
export function pathnameOf(target: string): string {
  const end = target.search(/[?#]/);
  const path = end === -1 ? target : target.slice(0, end);
  if (path.startsWith('/')) return path;
  try {
    return new URL(path).pathname; // absolute-form request target
  } catch {
    return `/${path}`;
  }
}
