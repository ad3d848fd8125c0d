import { el } from './element.js';

interface FilePart {
  type: 'file';
  attachmentId: string;
  mediaType: string;
  filename: string;
  url?: string;
}

/** The file parts of a stored message (`GET /chats/:id` signs each one's `url`). */
export function filePartsOf(parts: unknown[] | undefined): FilePart[] {
  return (parts ?? []).filter((part): part is FilePart => (part as FilePart)?.type === 'file' && typeof (part as FilePart).attachmentId === 'string');
}

/** Images inline, PDFs and text files as a chip linking to their bytes (the signed URL needs no token). */
export function renderAttachments(parts: unknown[] | undefined, contentUrl: (url: string) => string): HTMLElement | null {
  const files = filePartsOf(parts).filter((file) => typeof file.url === 'string');
  if (files.length === 0) return null;
  return el(
    'div',
    { class: 'attachments' },
    ...files.map((file) =>
      file.mediaType.startsWith('image/')
        ? el('img', { class: 'attachment-image', src: contentUrl(file.url!), alt: file.filename, loading: 'lazy' })
        : el('a', { class: 'file-chip', href: contentUrl(file.url!), target: '_blank', rel: 'noopener' }, file.filename),
    ),
  );
}
