/** The elements micromark and its GFM extension produce; anything else is replaced by its text. */
const ALLOWED_TAGS = new Set([
  'a', 'blockquote', 'br', 'code', 'del', 'em', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'hr', 'img', 'input', 'li',
  'ol', 'p', 'pre', 'section', 'strong', 'sup', 'table', 'tbody', 'td', 'th', 'thead', 'tr', 'ul',
]);

/** Attributes kept (per element, `*` for all); every other attribute, `on*` included, is removed. */
const ALLOWED_ATTRIBUTES: Record<string, ReadonlySet<string>> = {
  '*': new Set(['id', 'class', 'align', 'data-footnotes', 'data-footnote-ref', 'data-footnote-backref', 'aria-describedby', 'aria-label']),
  a: new Set(['href', 'title']),
  img: new Set(['src', 'alt', 'title']),
  input: new Set(['type', 'checked', 'disabled']),
  ol: new Set(['start']),
};

const LINK_PROTOCOLS = new Set(['http:', 'https:', 'mailto:']);
const IMAGE_PROTOCOLS = new Set(['http:', 'https:']);

/**
 * Defence in depth behind micromark's safe defaults: only known elements and attributes stay, links and images
 * only keep http(s) (and mailto) URLs (an image without one shows its alt text), links open in a new tab without an opener, and task-list checkboxes stay
 * disabled. A link whose URL was dropped stays as plain text.
 */
export function sanitizeTree(root: DocumentFragment | Element): void {
  for (const node of Array.from(root.querySelectorAll('*'))) {
    const tag = node.localName;
    if (!ALLOWED_TAGS.has(tag)) {
      node.replaceWith(document.createTextNode(node.textContent ?? ''));
      continue;
    }
    for (const { name } of Array.from(node.attributes)) {
      if (!ALLOWED_ATTRIBUTES['*']!.has(name) && !ALLOWED_ATTRIBUTES[tag]?.has(name)) node.removeAttribute(name);
    }
    if (tag === 'a') keepUrl(node, 'href', LINK_PROTOCOLS);
    if (tag === 'img') {
      keepUrl(node, 'src', IMAGE_PROTOCOLS);
      if (!node.hasAttribute('src')) {
        node.replaceWith(document.createTextNode(node.getAttribute('alt') ?? ''));
        continue;
      }
      node.setAttribute('loading', 'lazy');
      node.setAttribute('referrerpolicy', 'no-referrer');
    }
    if (tag === 'input') {
      if (node.getAttribute('type') !== 'checkbox') node.remove();
      else node.setAttribute('disabled', '');
    }
    if (tag === 'a' && node.hasAttribute('href') && !node.getAttribute('href')!.startsWith('#')) {
      node.setAttribute('target', '_blank');
      node.setAttribute('rel', 'noopener noreferrer nofollow');
    }
  }
}

/** Removes `attribute` unless it is a non-empty URL (or in-page `#fragment`) with one of `protocols`. */
function keepUrl(node: Element, attribute: string, protocols: ReadonlySet<string>): void {
  const value = node.getAttribute(attribute)?.trim() ?? '';
  if (value.startsWith('#') && value.length > 1) return;
  let allowed = false;
  try {
    allowed = value !== '' && protocols.has(new URL(value, location.href).protocol);
  } catch {
    allowed = false;
  }
  if (!allowed) node.removeAttribute(attribute);
}
