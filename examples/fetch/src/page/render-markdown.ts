import { micromark } from 'micromark';
import { gfm, gfmHtml } from 'micromark-extension-gfm';
import { el } from './element.js';
import { sanitizeTree } from './sanitize-tree.js';

/**
 * Model text as Markdown (CommonMark + GFM: lists, tables, task lists, fenced code, autolinks, strikethrough),
 * never as HTML: micromark escapes raw HTML and blanks `javascript:`-like URLs by default, and the result goes
 * through `sanitizeTree` as well. `idPrefix` (letters, digits, `-`) starts every id it generates (footnotes). Each fenced code block gets a "Copy" button (handled by `copyCodeOnClick`).
 */
export function renderMarkdown(source: string, idPrefix = ''): DocumentFragment {
  const template = document.createElement('template');
  template.innerHTML = toSafeHtml(source, idPrefix);
  const fragment = template.content;
  sanitizeTree(fragment);
  for (const pre of Array.from(fragment.querySelectorAll('pre'))) wrapCodeBlock(pre);
  for (const table of Array.from(fragment.querySelectorAll('table'))) {
    const scroll = el('div', { class: 'table-scroll' });
    table.replaceWith(scroll);
    scroll.append(table);
  }
  return fragment;
}

/** micromark's HTML for `source`: raw HTML escaped, dangerous protocols dropped (both its defaults, spelled out). */
function toSafeHtml(source: string, idPrefix: string): string {
  return micromark(source, {
    allowDangerousHtml: false,
    allowDangerousProtocol: false,
    extensions: [gfm()],
    // Footnote ids get the message's prefix, so footnotes of two answers never share an id.
    htmlExtensions: [gfmHtml({ clobberPrefix: `${idPrefix}user-content-` })],
  });
}

/** `<pre><code>` -> a block with the language, a "Copy" button, and the code scrolling sideways inside it. */
function wrapCodeBlock(pre: HTMLPreElement): void {
  const language = /(?:^|\s)language-([\w+#.-]+)/.exec(pre.querySelector('code')?.className ?? '')?.[1] ?? '';
  const copy = el('button', { type: 'button', class: 'copy', 'data-copy': '' }, 'Copy');
  const block = el('div', { class: 'code-block' }, el('div', { class: 'code-bar' }, el('span', {}, language || 'code'), copy));
  pre.replaceWith(block);
  block.append(pre);
}
