/** What a model reads, as `GET /models` lists it. */
export type ModelInput = 'text' | 'image' | 'pdf' | 'text-file';

export const MODEL_INPUTS: readonly ModelInput[] = ['text', 'image', 'pdf', 'text-file'];

/** The media types an upload may have, each with the model input that reads it. */
export const ATTACHMENT_MEDIA_TYPES: Readonly<Record<string, ModelInput>> = {
  'image/png': 'image',
  'image/jpeg': 'image',
  'image/webp': 'image',
  'image/gif': 'image',
  'application/pdf': 'pdf',
  'text/plain': 'text-file',
  'text/markdown': 'text-file',
  'text/csv': 'text-file',
};

/** Names a declared type may go by. */
const ALIASES: Readonly<Record<string, string>> = { 'image/jpg': 'image/jpeg', 'image/pjpeg': 'image/jpeg', 'text/x-markdown': 'text/markdown' };

/** The declared `Content-Type` without parameters, lowercased and unaliased; null when it is not an allowed type. */
export function allowedMediaType(declared: string | null | undefined): string | null {
  if (!declared) return null;
  const base = declared.split(';')[0]!.trim().toLowerCase();
  const type = ALIASES[base] ?? base;
  return type in ATTACHMENT_MEDIA_TYPES ? type : null;
}

/** A declared `charset` other than UTF-8 (or US-ASCII) on a text type is not accepted. */
export function declaresOtherCharset(declared: string): boolean {
  const match = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(declared);
  return match !== null && !/^(utf-?8|us-ascii)$/i.test(match[1]!);
}

export function modelInputOf(mediaType: string): ModelInput {
  return ATTACHMENT_MEDIA_TYPES[mediaType] ?? 'text-file';
}

export function isTextType(mediaType: string): boolean {
  return modelInputOf(mediaType) === 'text-file';
}
