import { renderMessage, type MessageView } from './render-message.js';

const STICK_TO_BOTTOM_PX = 80;

export interface MessageList {
  /** Shows `messages`, re-rendering only the ones that changed since the last call. */
  update(messages: readonly MessageView[], options?: { scrollToEnd?: boolean }): void;
}

/**
 * The conversation view inside `container`. A message is rendered again only when it changed (a streaming
 * reply, the stored row replacing it), so selections, scroll position and opened tool blocks in the others stay
 * put; opened tool blocks of a re-rendered message stay open. Follows the end of the conversation while the
 * user is at (or near) the bottom.
 */
export function createMessageList(container: HTMLElement): MessageList {
  let shown = new Map<string, { signature: string; node: HTMLElement }>();

  return {
    update(messages, options = {}) {
      const atBottom = container.scrollHeight - container.scrollTop - container.clientHeight < STICK_TO_BOTTOM_PX;
      const next = new Map<string, { signature: string; node: HTMLElement }>();
      const nodes = messages.map((message) => {
        const signature = JSON.stringify(message);
        const previous = shown.get(message.id);
        if (previous?.signature === signature) {
          next.set(message.id, previous);
          return previous.node;
        }
        const node = renderMessage(message);
        if (previous) keepOpenDetails(previous.node, node);
        next.set(message.id, { signature, node });
        return node;
      });
      shown = next;
      nodes.forEach((node, index) => {
        const current = container.children[index];
        if (current !== node) container.insertBefore(node, current ?? null);
      });
      while (container.children.length > nodes.length) container.lastElementChild!.remove();
      if (atBottom || options.scrollToEnd) container.scrollTop = container.scrollHeight;
    },
  };
}

function keepOpenDetails(from: HTMLElement, to: HTMLElement): void {
  const before = from.querySelectorAll('details');
  const after = to.querySelectorAll('details');
  before.forEach((details, index) => {
    if (details.open && after[index]) after[index].open = true;
  });
}
