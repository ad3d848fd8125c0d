import type { ModelMessage } from 'ai';
import type { Turn } from '../turn/turn.js';
import type { TurnRuntime } from '../turn/turn-runtime.js';
import { resolvePromptFiles } from './resolve-prompt-files.js';

/**
 * A turn's prompt with its file references resolved for the turn's model (bytes, text, or placeholders;
 * see `resolvePromptFiles`). The bytes are read once per turn and kept only while the turn runs.
 */
export function withPromptFiles(history: () => Promise<ModelMessage[]>, turn: Turn, rt: TurnRuntime): () => Promise<ModelMessage[]> {
  const attachments = rt.attachments;
  if (!attachments) return history;
  const inputs = attachments.inputsFor(turn.model.modelId, turn.model.provider);
  const keep = new Set((turn.plan.attachments ?? []).map((file) => file.attachmentId));
  const loaded = new Map<string, Promise<Uint8Array | null>>();
  const load = (attachmentId: string) => {
    let bytes = loaded.get(attachmentId);
    if (!bytes) {
      bytes = attachments
        .rowsFor(turn.caller, [attachmentId])
        .then(([row]) => attachments.bytesOf(row!))
        .catch(() => null);
      loaded.set(attachmentId, bytes);
    }
    return bytes;
  };
  return async () => resolvePromptFiles(await history(), { inputs, load, keep, budget: rt.compaction.contextBudget });
}
