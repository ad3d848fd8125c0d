/**
 * `@chatwire/core/testing`: test helpers for apps and for chatwire's own packages. msw handlers that
 * answer each provider's endpoint in its real wire format, recording the requests.
 */
export { fakeProviderGateway, GATEWAY, REPLY_WORDS, WIRE_USAGE } from './models/testing/fake-provider-gateway.js';
export type { CapturedRequest } from './models/testing/fake-provider-gateway.js';
export * from './models/testing/provider-wire-fixtures.js';
