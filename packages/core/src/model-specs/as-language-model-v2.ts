import type { LanguageModelV2, LanguageModelV2CallOptions, LanguageModelV2StreamPart } from '@ai-sdk/provider';
import type { LanguageModelV3 } from 'provider-v6';
import type { LanguageModelV4 } from 'provider-v7';
import type { AppLanguageModel } from './app-language-model.js';
import type { PartSource } from './unsupported-part-error.js';
import { v2CallOptionsToV3 } from './v2-call-options-to-v3.js';
import { v2CallOptionsToV4 } from './v2-call-options-to-v4.js';
import { v3ContentToV2 } from './v3-content-to-v2.js';
import { v3FinishReasonToV2, v3UsageToV2 } from './v3-finish-to-v2.js';
import { v3StreamPartToV2, type V3StreamPart } from './v3-stream-part-to-v2.js';
import { v3WarningsToV2 } from './v3-warnings-to-v2.js';

type NewerModel = LanguageModelV3 | LanguageModelV4;

/**
 * An app's model of any known specification as the `v2` model chatwire's loop (and AI SDK 5) runs: a `v2`
 * model as it is; a `v3` (AI SDK 6) or `v4` (AI SDK 7) model behind an adapter that converts each call's
 * options down to its specification and its results and stream parts back to `v2` (see `v3StreamPartToV2`
 * for what is mapped and what is refused). The caller has checked `specificationVersion`.
 */
export function asLanguageModelV2(model: AppLanguageModel): LanguageModelV2 {
  switch (model.specificationVersion) {
    case 'v2':
      return model as unknown as LanguageModelV2;
    case 'v3':
      return adapt(model as unknown as LanguageModelV3, v2CallOptionsToV3);
    case 'v4':
      return adapt(model as unknown as LanguageModelV4, v2CallOptionsToV4);
  }
}

function adapt<M extends NewerModel>(model: M, toCall: (options: LanguageModelV2CallOptions) => Parameters<M['doStream']>[0]): LanguageModelV2 {
  const source: PartSource = { provider: model.provider, modelId: model.modelId, specificationVersion: model.specificationVersion };
  const call = model as NewerModel & { doGenerate(options: unknown): ReturnType<NewerModel['doGenerate']>; doStream(options: unknown): ReturnType<NewerModel['doStream']> };
  return {
    specificationVersion: 'v2',
    provider: model.provider,
    modelId: model.modelId,
    get supportedUrls() {
      return model.supportedUrls;
    },
    async doGenerate(options) {
      const result = await call.doGenerate(toCall(options));
      return {
        content: v3ContentToV2(result.content, source),
        finishReason: v3FinishReasonToV2(result.finishReason),
        usage: v3UsageToV2(result.usage),
        ...(result.providerMetadata !== undefined ? { providerMetadata: result.providerMetadata as never } : {}),
        ...(result.request !== undefined ? { request: result.request } : {}),
        ...(result.response !== undefined ? { response: result.response } : {}),
        warnings: v3WarningsToV2(result.warnings),
      };
    },
    async doStream(options) {
      const result = await call.doStream(toCall(options));
      const stream = (result.stream as ReadableStream<V3StreamPart>).pipeThrough(
        new TransformStream<V3StreamPart, LanguageModelV2StreamPart>({
          transform(part, controller) {
            const mapped = v3StreamPartToV2(part, source);
            if (mapped !== undefined) controller.enqueue(mapped);
          },
        }),
      );
      return { stream, ...(result.request !== undefined ? { request: result.request } : {}), ...(result.response !== undefined ? { response: result.response } : {}) };
    },
  };
}
