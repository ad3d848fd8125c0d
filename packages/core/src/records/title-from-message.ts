const MAX_TITLE = 60;

/** A chat title from its first message: the first line, spaces collapsed, at most 60 characters. */
export function titleFromMessage(content: string): string {
  const firstLine = content.trim().split('\n', 1)[0] ?? '';
  const text = firstLine.replace(/\s+/g, ' ').trim();
  if (text.length === 0) return 'New chat';
  if (text.length <= MAX_TITLE) return text;
  const cut = text.slice(0, MAX_TITLE - 1);
  const space = cut.lastIndexOf(' ');
  return `${space > MAX_TITLE / 2 ? cut.slice(0, space) : cut}…`;
}
