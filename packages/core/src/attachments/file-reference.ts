import type { ModelMessage, TextPart, UserContent } from 'ai';
import type { FilePartData } from '../records/attachment-collection.js';

/** Where a file reference keeps its attachment, inside a text part, until the bytes replace it. */
const KEY = 'chatwire';

/** What the model reads instead of a file it cannot read (or one compaction left out): a line naming it. */
export function placeholderText(file: Pick<FilePartData, 'filename' | 'mediaType'>): string {
  return `[Attached file "${file.filename}" (${file.mediaType}) is not shown to this model]`;
}

/** A text part standing for a file: its placeholder, carrying the attachment until the prompt is resolved. */
export function fileReference(file: FilePartData): TextPart {
  return { type: 'text', text: placeholderText(file), providerOptions: { [KEY]: { attachmentId: file.attachmentId, mediaType: file.mediaType, filename: file.filename } } };
}

/** The attachment a prompt part stands for, or null. */
export function referencedFile(part: unknown): FilePartData | null {
  const options = (part as { type?: unknown; providerOptions?: Record<string, Record<string, unknown>> }).providerOptions?.[KEY];
  if ((part as { type?: unknown }).type !== 'text' || !options || typeof options.attachmentId !== 'string') return null;
  return { type: 'file', attachmentId: options.attachmentId, mediaType: String(options.mediaType), filename: String(options.filename) };
}

/** The file parts of a stored row (`{ type: 'file', attachmentId, mediaType, filename }`). */
export function fileParts(parts: unknown): FilePartData[] {
  if (!Array.isArray(parts)) return [];
  return parts.filter(
    (part): part is FilePartData =>
      typeof part === 'object' && part !== null && (part as FilePartData).type === 'file' && typeof (part as FilePartData).attachmentId === 'string',
  ).map(({ attachmentId, mediaType, filename }) => ({ type: 'file', attachmentId, mediaType, filename }));
}

/** A user message: its text (when not blank) and a reference per file; none at all when both are empty. */
export function userMessages(text: string, files: readonly FilePartData[]): ModelMessage[] {
  if (files.length === 0) return text.length > 0 ? [{ role: 'user', content: text }] : [];
  const content: UserContent = [...(text.trim().length > 0 ? [{ type: 'text' as const, text }] : []), ...files.map(fileReference)];
  return [{ role: 'user', content }];
}
