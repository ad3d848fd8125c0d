import { createModelRegistry, type ModelRegistry } from '@chatwire/core';
import { ChatwireError } from '@chatwire/storage';
import type { LanguageModelV2 } from '@ai-sdk/provider';
import { jwtOptionsFromEnv, type JwtVerifierOptions } from './auth/index.js';
import { turnOptionsFromEnv, type TurnEnvOptions } from './env/turn-options-from-env.js';
import { httpLimitsFromEnv, type HttpLimits } from './http/http-limits-from-env.js';

export interface EnvOptions extends TurnEnvOptions, HttpLimits {
  auth: JwtVerifierOptions;
  /** From CHATWIRE_REDIS_URL: running turns shared across processes. */
  redis?: { url: string };
  models: ModelRegistry;
  compaction: { contextBudget?: number };
}

/**
 * Handler options from the environment (DESIGN.md): CHATWIRE_JWT_SECRET | CHATWIRE_JWKS_URL |
 * CHATWIRE_JWT_PUBLIC_KEY (+ CHATWIRE_JWT_ISSUER, CHATWIRE_JWT_AUDIENCE), PROVIDER_{A,B,C}_BASE_URL,
 * PROVIDER_{A,B,C}_API_KEY, APP_OWNER_JWT, CHATWIRE_CONTEXT_BUDGET. `fallbackModel` serves every model
 * id when no provider is configured (the examples' demo mode).
 */
export function fromEnv(
  env: Record<string, string | undefined>,
  options: { fallbackModel?: LanguageModelV2; fetch?: typeof fetch } = {},
): EnvOptions {
  const auth = jwtOptionsFromEnv(env);
  if (!auth) {
    throw new ChatwireError(
      'CONFIGURATION',
      'No JWT verification configured: set CHATWIRE_JWT_SECRET, CHATWIRE_JWKS_URL or CHATWIRE_JWT_PUBLIC_KEY',
    );
  }
  const compaction: { contextBudget?: number } = {};
  const budget = env.CHATWIRE_CONTEXT_BUDGET;
  if (budget !== undefined && budget !== '') {
    const value = Number(budget);
    if (!Number.isInteger(value) || value <= 0) {
      throw new ChatwireError('CONFIGURATION', `CHATWIRE_CONTEXT_BUDGET must be a positive integer, got '${budget}'`);
    }
    compaction.contextBudget = value;
  }
  const models = createModelRegistry({
    env,
    ...(options.fallbackModel ? { fallbackModel: options.fallbackModel } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const redisUrl = env.CHATWIRE_REDIS_URL?.trim();
  return {
    auth,
    models,
    compaction,
    ...turnOptionsFromEnv(env),
    ...httpLimitsFromEnv(env),
    ...(redisUrl ? { redis: { url: redisUrl } } : {}),
  };
}
