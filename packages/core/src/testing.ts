/**
 * `@chatwire/core/testing`: test helpers for apps and for chatwire's own packages. msw handlers that
 * answer each provider's endpoint in its real wire format, recording the requests.
 */
export { fakeProviderGateway, GATEWAY, REPLY_WORDS, WIRE_USAGE } from './models/testing/fake-provider-gateway.js';
export type { CapturedRequest } from './models/testing/fake-provider-gateway.js';
export * from './models/testing/provider-wire-fixtures.js';
// A scripted model for turn tests: text and tool steps, pausing and failing at a given part.
export { scriptedModel, textStep, toolStep, STEP_USAGE } from './turn/testing/scripted-model.js';
export type { Script, ScriptedModel } from './turn/testing/scripted-model.js';
