import { createModelRegistry, modelOptionsFromEnv, type ModelRegistry, type ModelRegistryOptions } from '@chatwire/core';
import { ChatwireError } from '@chatwire/storage';
import { jwtOptionsFromEnv, type JwtVerifierOptions } from './auth/index.js';
import { turnOptionsFromEnv, type TurnEnvOptions } from './env/turn-options-from-env.js';
import { httpLimitsFromEnv, type HttpLimits } from './http/http-limits-from-env.js';
import { limitsFromEnv } from './env/limits-from-env.js';
import { attachmentOptionsFromEnv } from './env/attachment-options-from-env.js';

export interface EnvOptions extends TurnEnvOptions, HttpLimits {
  auth: JwtVerifierOptions;
  /** From CHATWIRE_REDIS_URL: running turns shared across processes. */
  redis?: { url: string };
  models: ModelRegistry;
  compaction: { contextBudget?: number };
  /** From CHATWIRE_TURNS_PER_MINUTE / CHATWIRE_TOKENS_PER_DAY: per-user limits. */
  turnsPerMinute?: number;
  tokensPerDay?: number;
  /** From CHATWIRE_ATTACHMENT_* and CHATWIRE_MODEL_INPUTS: upload limits, the content-URL key, what models read. */
  attachments?: ReturnType<typeof attachmentOptionsFromEnv>['attachments'];
}

/** What code adds to the environment's model settings: the app's own models, the demo fallback, a fetch. */
export type FromEnvModelOptions = Pick<ModelRegistryOptions, 'fallbackModel' | 'fetch' | 'models' | 'defaultModelId'>;

/**
 * Handler options from the environment: CHATWIRE_JWT_SECRET | CHATWIRE_JWKS_URL | CHATWIRE_JWT_PUBLIC_KEY
 * (+ CHATWIRE_JWT_ISSUER, CHATWIRE_JWT_AUDIENCE), CHATWIRE_CONTEXT_BUDGET, and the model registry:
 * PROVIDER_{A,B,C}_BASE_URL and PROVIDER_{A,B,C}_API_KEY -> `providers`, APP_OWNER_JWT -> `appOwnerToken`,
 * CHATWIRE_MODEL_MAP -> `modelMap` (a malformed map throws CONFIGURATION). `fallbackModel` serves every
 * provider-served model id when no provider is configured (the examples' demo mode).
 */
export function fromEnv(env: Record<string, string | undefined>, options: FromEnvModelOptions = {}): EnvOptions {
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
  const models = createModelRegistry({ ...modelOptionsFromEnv(env), ...definedOnly(options) });
  const redisUrl = env.CHATWIRE_REDIS_URL?.trim();
  return {
    auth,
    models,
    compaction,
    ...turnOptionsFromEnv(env),
    ...httpLimitsFromEnv(env),
    ...limitsFromEnv(env),
    ...attachmentOptionsFromEnv(env),
    ...(redisUrl ? { redis: { url: redisUrl } } : {}),
  };
}

function definedOnly<T extends object>(options: T): Partial<T> {
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) as Partial<T>;
}
