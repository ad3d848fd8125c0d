const FEEDBACK_MS = 1500;

/**
 * One listener for every "Copy" button under `container` (they are re-created while a reply streams): copies
 * the code of the block the button belongs to, and only that (without the final line break). Uses the Clipboard API; where the page is
 * not a secure context (no `navigator.clipboard`) or the API refuses, falls back to `execCommand('copy')`, and
 * failing that selects the code so the user can copy it by hand.
 */
export function copyCodeOnClick(container: HTMLElement): void {
  container.addEventListener('click', (event) => {
    const button = (event.target as Element | null)?.closest?.('button[data-copy]');
    const code = button?.closest('.code-block')?.querySelector('pre code, pre');
    if (!(button instanceof HTMLButtonElement) || !code) return;
    void copyText((code.textContent ?? '').replace(/\n$/, '')).then((copied) => {
      if (!copied) selectContents(code);
      flash(button, copied ? 'Copied' : 'Press Ctrl+C');
    });
  });
}

async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // Permission refused or document not focused: try the legacy way below.
  }
  const scratch = document.createElement('textarea');
  scratch.value = text;
  scratch.setAttribute('readonly', '');
  scratch.className = 'offscreen';
  document.body.append(scratch);
  scratch.select();
  try {
    return document.execCommand('copy');
  } catch {
    return false;
  } finally {
    scratch.remove();
  }
}

function selectContents(node: Element): void {
  const range = document.createRange();
  range.selectNodeContents(node);
  const selection = getSelection();
  selection?.removeAllRanges();
  selection?.addRange(range);
}

/** Shows `text` on the button for a moment, then its name goes back to "Copy". */
function flash(button: HTMLButtonElement, text: string): void {
  button.textContent = text;
  setTimeout(() => {
    button.textContent = 'Copy';
  }, FEEDBACK_MS);
}
