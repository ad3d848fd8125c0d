import type { ChatClient } from '@chatwire/client';

export interface ShareChatOptions {
  /** The "Share" button. */
  button: HTMLButtonElement;
  /** Shown once a link exists: holds `link` and `status`. */
  panel: HTMLElement;
  /** A read-only text box with the link, so it can be copied by hand too. */
  link: HTMLInputElement;
  /** "Link copied", or why it was not. */
  status: HTMLElement;
  client: ChatClient;
  chatId: () => string | null;
  onError: (error: unknown) => void;
}

/**
 * "Share": makes a read-only link to the open chat as it is now (`POST /chats/:id/shares`), shows it and
 * copies it to the clipboard. Later messages are not in it; sharing again makes a new link. `reset` hides
 * the link (another chat was opened).
 */
export function setUpShareChat(options: ShareChatOptions): { reset(): void } {
  const { button, panel, link, status } = options;
  button.onclick = () => {
    const chatId = options.chatId();
    if (!chatId) return;
    button.disabled = true;
    void options.client
      .createShare(chatId)
      .then(async ({ url }) => {
        link.value = url;
        panel.hidden = false;
        status.textContent = (await copy(url)) ? 'Link copied' : 'Copy the link above';
        link.select();
      })
      .catch(options.onError)
      .finally(() => (button.disabled = false));
  };
  return {
    reset() {
      panel.hidden = true;
      link.value = '';
      status.textContent = '';
    },
  };
}

async function copy(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}
