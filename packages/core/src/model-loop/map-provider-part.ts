import type { LanguageModelV2StreamPart } from '@ai-sdk/provider';
import { convertBase64ToUint8Array, convertUint8ArrayToBase64 } from '@ai-sdk/provider-utils';
import { unsupportedPartError, type PartSource } from '../model-specs/unsupported-part-error.js';
import type { LoopPart, LoopPartOf } from './loop-part.js';
import type { StepState } from './step-state.js';

/** The provider parts `mapProviderPart` takes: all but the two the step reader handles itself. */
export type MappedProviderPart = Exclude<LanguageModelV2StreamPart, { type: 'stream-start' | 'tool-call' }>;

/**
 * One provider part as the loop part `streamText` would hand over, recorded in the step's state (its content,
 * open blocks, tool inputs, finish): synchronous, no hooks, no I/O. `undefined`: nothing to hand over (an empty
 * text delta, response metadata, the finish, a raw chunk, which the loop never asks for). A part type outside
 * the `v2` specification is not dropped: it becomes an `error` part naming it.
 */
export function mapProviderPart(part: MappedProviderPart, step: StepState, source: PartSource): LoopPart | undefined {
  switch (part.type) {
    case 'text-delta':
      if (part.delta.length === 0 && part.providerMetadata == null) return undefined;
      step.appendText(part.id, part.delta, part.providerMetadata);
      return { type: 'text-delta', id: part.id, text: part.delta, providerMetadata: part.providerMetadata };
    case 'reasoning-delta':
      step.appendText(part.id, part.delta, part.providerMetadata);
      return { type: 'reasoning-delta', id: part.id, text: part.delta, providerMetadata: part.providerMetadata };
    case 'text-start':
    case 'reasoning-start':
      step.openBlock(part.id, part.type === 'text-start' ? 'text' : 'reasoning', part.providerMetadata);
      return part;
    case 'text-end':
    case 'reasoning-end':
      step.closeBlock(part.id, part.providerMetadata);
      return part;
    case 'tool-input-start':
      step.inputTools.set(part.id, part.toolName);
      return { ...part, dynamic: step.tools[part.toolName]?.type === 'dynamic' } satisfies LoopPartOf<'tool-input-start'>;
    case 'tool-input-delta':
      return part;
    case 'tool-input-end':
      step.inputTools.delete(part.id);
      return part;
    case 'tool-result':
      return providerToolOutput(part, step);
    case 'file': {
      const base64 = typeof part.data === 'string' ? part.data : convertUint8ArrayToBase64(part.data);
      step.content.push({ type: 'file', base64, mediaType: part.mediaType });
      const file = { base64, mediaType: part.mediaType, get uint8Array() { return convertBase64ToUint8Array(base64); } };
      return { type: 'file', file } satisfies LoopPartOf<'file'>;
    }
    case 'source':
      return part;
    case 'response-metadata':
      step.response = { id: part.id ?? step.response.id, timestamp: part.timestamp ?? step.response.timestamp, modelId: part.modelId ?? step.response.modelId };
      return undefined;
    case 'finish':
      step.usage = part.usage;
      step.finishReason = part.finishReason;
      step.providerMetadata = part.providerMetadata;
      return undefined;
    case 'error':
      step.finishReason = 'error';
      return { type: 'error', error: part.error };
    case 'raw':
      return undefined;
    default:
      return unknownPart(part, step, source);
  }
}

/** A result of a tool the provider ran: a `tool-result`, or a `tool-error` when the provider says it failed. */
function providerToolOutput(part: Extract<MappedProviderPart, { type: 'tool-result' }>, step: StepState): LoopPart {
  const common = { toolCallId: part.toolCallId, toolName: part.toolName, input: step.inputs.get(part.toolCallId), providerExecuted: part.providerExecuted };
  if (part.isError) {
    step.content.push({ type: 'tool-error', ...common, error: part.result, providerMetadata: part.providerMetadata });
    return { type: 'tool-error', ...common, error: part.result } satisfies LoopPartOf<'tool-error'>;
  }
  step.content.push({ type: 'tool-result', ...common, output: part.result, providerMetadata: part.providerMetadata });
  return { type: 'tool-result', ...common, output: part.result } satisfies LoopPartOf<'tool-result'>;
}

/** The exhaustiveness check: a part of a type the specification does not have ends the step with an error. */
function unknownPart(part: never, step: StepState, source: PartSource): LoopPart {
  step.finishReason = 'error';
  const type = (part as { type?: unknown }).type;
  return { type: 'error', error: unsupportedPartError(String(type), source, "not a part of the model's specification") };
}
