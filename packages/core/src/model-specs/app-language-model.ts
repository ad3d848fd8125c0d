/** The model specifications chatwire runs: AI SDK 5's provider packages make `v2`, 6's `v3`, 7's `v4`. */
export const KNOWN_SPECIFICATION_VERSIONS = ['v2', 'v3', 'v4'] as const;

export type SpecificationVersion = (typeof KNOWN_SPECIFICATION_VERSIONS)[number];

/**
 * A language model an app brings from its own `@ai-sdk/*` provider package, of AI SDK 5 (`v2`), 6 (`v3`) or 7
 * (`v4`). Declared structurally, so that a model built against any major's `@ai-sdk/provider` is accepted
 * without chatwire's types naming that package: chatwire checks the rest at start-up and runs every model
 * through its own loop as a `v2` model.
 */
export interface AppLanguageModel {
  readonly specificationVersion: SpecificationVersion;
  readonly provider: string;
  readonly modelId: string;
  readonly supportedUrls: PromiseLike<Record<string, RegExp[]>> | Record<string, RegExp[]>;
  doGenerate(options: never): PromiseLike<unknown>;
  doStream(options: never): PromiseLike<unknown>;
}
