import { ChatwireError } from '@chatwire/storage';
import { MODEL_INPUTS, type ModelInput } from './attachment-media-types.js';

/**
 * What each provider's models read unless told otherwise: Anthropic Messages and OpenAI Responses take
 * images and PDFs; the OpenAI-compatible gateway model (and any other provider) reads text only. Every
 * model reads text files: they are sent as text.
 */
export const PROVIDER_DEFAULT_INPUTS: Readonly<Record<string, readonly ModelInput[]>> = {
  provider_a: ['text', 'image', 'pdf', 'text-file'],
  provider_b: ['text', 'image', 'pdf', 'text-file'],
  provider_c: ['text', 'text-file'],
};

const FALLBACK_INPUTS: readonly ModelInput[] = ['text', 'text-file'];

/** The inputs of a model: its override, else its provider's defaults. */
export function inputsFor(overrides: Readonly<Record<string, readonly ModelInput[]>> | undefined, modelId: string, provider: string): ModelInput[] {
  return [...(overrides?.[modelId] ?? PROVIDER_DEFAULT_INPUTS[provider] ?? FALLBACK_INPUTS)];
}

/**
 * `CHATWIRE_MODEL_INPUTS`: `model=input,input;model=...`, e.g. `alpha-sonnet-4-6=text,image,pdf;gamma-oss-120b=text`.
 * `text` is always added (every model reads text). A malformed entry or an unknown input is a
 * CONFIGURATION error naming it.
 */
export function parseModelInputs(value: string | undefined): Record<string, ModelInput[]> | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const out: Record<string, ModelInput[]> = {};
  for (const entry of value.split(';').map((item) => item.trim()).filter(Boolean)) {
    const match = /^([^=\s]+)\s*=\s*(.*)$/.exec(entry);
    const inputs = match ? match[2]!.split(',').map((item) => item.trim()).filter(Boolean) : [];
    const unknown = inputs.find((input) => !(MODEL_INPUTS as readonly string[]).includes(input));
    if (!match || unknown !== undefined) {
      throw new ChatwireError(
        'CONFIGURATION',
        `CHATWIRE_MODEL_INPUTS: ${JSON.stringify(entry)} must be model=${MODEL_INPUTS.join(',')} (any of them)${unknown ? `; unknown input ${JSON.stringify(unknown)}` : ''}`,
        { details: { variable: 'CHATWIRE_MODEL_INPUTS' } },
      );
    }
    out[match[1]!] = [...new Set<ModelInput>(['text', ...(inputs as ModelInput[])])];
  }
  return out;
}
