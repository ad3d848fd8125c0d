import type { ModelMessage, UserContent } from 'ai';
import { measureMessages } from '../compaction/message-size.js';
import type { FilePartData } from '../records/attachment-collection.js';
import { modelInputOf, type ModelInput } from './attachment-media-types.js';
import { referencedFile } from './file-reference.js';

/** Prompt characters an attachment is counted as against the context budget (about 4 characters a token). */
export function attachmentCost(file: FilePartData, size: number): number {
  const input = modelInputOf(file.mediaType);
  if (input === 'image') return 6_000; // providers scale images to about 1,600 tokens
  if (input === 'pdf') return Math.max(6_000, Math.ceil(size / 2));
  return size + 64;
}

export interface ResolveFilesOptions {
  /** What the model reads. */
  inputs: readonly ModelInput[];
  /** The bytes and size of an attachment (null: gone, e.g. its chat is being deleted). */
  load(attachmentId: string): Promise<Uint8Array | null>;
  /** The compaction budget in characters: attachments beyond what is left of it, oldest first, become placeholders. */
  budget: number;
  /** Attachments always sent (the new message's: admission checked them). */
  keep: ReadonlySet<string>;
}

/**
 * Replaces every file reference of a prompt (see `file-reference.ts`) by what the model reads: the bytes
 * (`{ type: 'file', data, mediaType, filename }`, never a URL, so nothing is downloaded for the model), the
 * text of a text file, or, for a type the model cannot read or an old attachment past the budget, its
 * placeholder text. Newest attachments are counted first. Stored rows are never changed.
 */
export async function resolvePromptFiles(messages: ModelMessage[], options: ResolveFilesOptions): Promise<ModelMessage[]> {
  if (!messages.some(hasReference)) return messages;
  let left = options.budget - measureMessages(messages);
  const readable = new Set(options.inputs);
  const decided = new Map<string, Uint8Array | null>();
  // Newest first: the budget goes to recent files.
  for (let m = messages.length - 1; m >= 0; m--) {
    const content = messages[m]!.content;
    if (!Array.isArray(content)) continue;
    for (let p = content.length - 1; p >= 0; p--) {
      const file = referencedFile(content[p]);
      if (!file || decided.has(file.attachmentId)) continue;
      if (!readable.has(modelInputOf(file.mediaType))) {
        decided.set(file.attachmentId, null);
        continue;
      }
      const bytes = await options.load(file.attachmentId);
      const cost = bytes ? attachmentCost(file, bytes.byteLength) : 0;
      if (bytes && (options.keep.has(file.attachmentId) || cost <= left)) {
        left -= cost;
        decided.set(file.attachmentId, bytes);
      } else decided.set(file.attachmentId, null);
    }
  }
  return messages.map((message) => {
    if (message.role !== 'user' || !Array.isArray(message.content) || !message.content.some((part) => referencedFile(part))) return message;
    const content: UserContent = message.content.map((part) => {
      const file = referencedFile(part);
      if (!file) return part;
      const bytes = decided.get(file.attachmentId);
      if (!bytes) return { type: 'text' as const, text: (part as { text: string }).text };
      if (modelInputOf(file.mediaType) === 'text-file') {
        return { type: 'text' as const, text: `<file name="${file.filename.replaceAll('"', "'")}" type="${file.mediaType}">\n${new TextDecoder().decode(bytes)}\n</file>` };
      }
      return { type: 'file' as const, data: bytes, mediaType: file.mediaType, filename: file.filename };
    });
    return { ...message, content };
  });
}

function hasReference(message: ModelMessage): boolean {
  return message.role === 'user' && Array.isArray(message.content) && message.content.some((part) => referencedFile(part) !== null);
}
