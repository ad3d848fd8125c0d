// `@chatwire/core/telemetry`: OpenTelemetry spans of turns through `@opentelemetry/api` only (kept off
// the main entry, which is capped; `@chatwire/server` re-exports what apps use).
export { createOtelObservers } from './create-otel-observers.js';
export type { OtelObservers, OtelObserversOptions, AiSdkTelemetry } from './create-otel-observers.js';
export { GEN_AI_SEMCONV_VERSION } from './gen-ai-attributes.js';
export type { ObservedTurn, TurnObserver, TurnObservers } from '../turn/turn-observer.js';
