import { el } from './element.js';

/** What the server takes (and a model may read): images, PDFs and text files. */
export const ACCEPTED_TYPES = 'image/png,image/jpeg,image/webp,image/gif,application/pdf,text/plain,text/markdown,text/csv';

export interface AttachmentPicker {
  /** The files chosen so far, in order. */
  files(): File[];
  /** Empties the selection (after a send). */
  clear(): void;
}

/**
 * The composer's "Attach" control: a file picker (several files) and paste of files into the message box,
 * each shown before sending as a preview (an image thumbnail, or a chip with the file's name) with a button
 * to take it out again.
 */
export function createAttachmentPicker(button: HTMLButtonElement, input: HTMLInputElement, previews: HTMLElement, pasteTarget: HTMLElement): AttachmentPicker {
  let chosen: Array<{ file: File; url: string | null }> = [];
  const render = () => {
    previews.replaceChildren(
      ...chosen.map(({ file, url }, index) =>
        el(
          'li',
          { class: 'attachment-preview', 'data-name': file.name },
          url ? el('img', { src: url, alt: file.name }) : el('span', { class: 'file-chip' }, file.name),
          el('button', { type: 'button', class: 'ghost small', 'aria-label': `Remove ${file.name}`, 'data-index': String(index) }, '×'),
        ),
      ),
    );
    previews.hidden = chosen.length === 0;
  };
  const add = (files: Iterable<File>) => {
    for (const file of files) chosen.push({ file, url: file.type.startsWith('image/') ? URL.createObjectURL(file) : null });
    render();
  };
  input.accept = ACCEPTED_TYPES;
  button.onclick = () => input.click();
  input.onchange = () => {
    add(input.files ?? []);
    input.value = '';
  };
  pasteTarget.addEventListener('paste', (event) => {
    const files = [...(event.clipboardData?.files ?? [])];
    if (files.length === 0) return;
    event.preventDefault();
    add(files);
  });
  previews.addEventListener('click', (event) => {
    const index = (event.target as HTMLElement).closest('button')?.getAttribute('data-index');
    if (index == null) return;
    const [removed] = chosen.splice(Number(index), 1);
    if (removed?.url) URL.revokeObjectURL(removed.url);
    render();
  });
  return {
    files: () => chosen.map(({ file }) => file),
    clear() {
      for (const { url } of chosen) if (url) URL.revokeObjectURL(url);
      chosen = [];
      render();
    },
  };
}
