import type { SearchPage, SearchResult } from '@chatwire/client';
import { el } from './element.js';

/** Waits this long after the last keystroke before searching. */
const TYPING_PAUSE_MS = 250;

export interface ChatSearchOptions {
  /** The search box (accessible name "Search chats") and the list its results replace the chat list with. */
  input: HTMLInputElement;
  results: HTMLUListElement;
  /** Shown while no search is active. */
  chatList: HTMLElement;
  search(q: string, options: { signal: AbortSignal }): Promise<SearchPage>;
  /** Opens the chat of a result, at its message (null: a chat-title hit). */
  open(chatId: string, messageId: string | null): void;
  onError(error: unknown): void;
}

/** The snippet as text nodes, every highlight in a `<mark>` (never parsed as HTML). */
function snippetNodes(result: SearchResult): Node[] {
  const nodes: Node[] = [];
  let at = 0;
  for (const { start, end } of result.highlights) {
    if (start < at || end > result.snippet.length) continue;
    if (start > at) nodes.push(document.createTextNode(result.snippet.slice(at, start)));
    nodes.push(el('mark', {}, result.snippet.slice(start, end)));
    at = end;
  }
  if (at < result.snippet.length) nodes.push(document.createTextNode(result.snippet.slice(at)));
  return nodes;
}

function who(result: SearchResult): string {
  return result.role === 'user' ? 'You' : result.role === 'assistant' ? 'Assistant' : 'Title';
}

/**
 * The search box over the chat list: typing searches the caller's chats (`GET /search`), the results list
 * replaces the chat list until the box is emptied (or Escape), and a result opens its chat at the message.
 */
export function createChatSearch(options: ChatSearchOptions): void {
  const { input, results, chatList } = options;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let inFlight: AbortController | null = null;

  const show = (searching: boolean) => {
    results.hidden = !searching;
    chatList.hidden = searching;
  };

  const render = (page: SearchPage) => {
    if (page.results.length === 0) {
      results.replaceChildren(el('li', { class: 'hint' }, 'No matches'));
      return;
    }
    results.replaceChildren(
      ...page.results.map((result) => {
        const link = el(
          'a',
          { href: `#chat=${encodeURIComponent(result.chatId)}`, class: 'search-result' },
          el('span', { class: 'result-chat' }, result.chatTitle),
          el('span', { class: 'result-text' }, el('span', { class: 'result-who' }, `${who(result)}: `), ...snippetNodes(result)),
        );
        link.onclick = (event) => {
          event.preventDefault();
          options.open(result.chatId, result.messageId);
        };
        return el('li', {}, link);
      }),
    );
  };

  const run = () => {
    const q = input.value.trim();
    inFlight?.abort();
    inFlight = null;
    if (q === '') {
      results.replaceChildren();
      show(false);
      return;
    }
    const controller = (inFlight = new AbortController());
    options
      .search(q, { signal: controller.signal })
      .then((page) => {
        if (inFlight !== controller) return;
        show(true);
        render(page);
      })
      .catch((error: unknown) => {
        if (inFlight !== controller) return;
        // Only operators, or nothing to search: no results rather than an error.
        if ((error as { code?: unknown })?.code === 'VALIDATION') {
          show(true);
          render({ results: [], nextCursor: null });
        } else options.onError(error);
      });
  };

  input.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(run, TYPING_PAUSE_MS);
  });
  input.form?.addEventListener('submit', (event) => {
    event.preventDefault();
    clearTimeout(timer);
    run();
  });
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && input.value !== '') {
      event.stopPropagation();
      input.value = '';
      run();
    }
  });
}

/** Scrolls the open chat to the message `messageId` and focuses it (tab stop -1), when it is shown. */
export function revealMessage(container: HTMLElement, messageId: string): boolean {
  const article = [...container.querySelectorAll<HTMLElement>('article[data-id]')].find((node) => node.dataset.id === messageId);
  if (!article) return false;
  article.tabIndex = -1;
  article.classList.add('found');
  article.scrollIntoView({ block: 'center' });
  article.focus({ preventScroll: true });
  setTimeout(() => article.classList.remove('found'), 2_000);
  return true;
}
