import { ChatwireError } from '@chatwire/storage';

/** Where a refused part came from: the model and the specification it implements. */
export interface PartSource {
  provider: string;
  modelId: string;
  specificationVersion: string;
}

/**
 * The error a refused model part becomes: a part chatwire cannot run (a tool approval request, provider custom
 * content, a reasoning file, a file given by URL, a part type it does not know). It names the part type and
 * the model; over HTTP the client gets the usual safe text, `onError` gets this message.
 */
export function unsupportedPartError(partType: string, source: PartSource, reason?: string): ChatwireError {
  const type = typeof partType === 'string' ? partType.slice(0, 80) : String(partType);
  return new ChatwireError(
    'CONFIGURATION',
    `model '${source.provider}/${source.modelId}' (specification ${source.specificationVersion}) sent a '${type}' part, ` +
      `which chatwire does not support${reason ? ` (${reason})` : ''}; the turn ends with an error instead of dropping it`,
    { details: { partType: type, provider: source.provider, modelId: source.modelId, specificationVersion: source.specificationVersion } },
  );
}
