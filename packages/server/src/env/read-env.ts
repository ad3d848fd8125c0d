import { ChatwireError } from '@chatwire/storage';

type Env = Record<string, string | undefined>;

function raw(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

/** A whole number of milliseconds (`0` allowed: "off"); unset or empty: undefined. */
export function envMilliseconds(env: Env, name: string): number | undefined {
  const value = raw(env, name);
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(number)) {
    throw new ChatwireError('CONFIGURATION', `${name} must be a whole number of milliseconds, got '${env[name]}'`);
  }
  return number;
}

/** `1`, `true`, `yes`, `on` or `0`, `false`, `no`, `off`; unset or empty: undefined. */
export function envFlag(env: Env, name: string): boolean | undefined {
  const value = raw(env, name)?.toLowerCase();
  if (value === undefined) return undefined;
  if (['1', 'true', 'yes', 'on'].includes(value)) return true;
  if (['0', 'false', 'no', 'off'].includes(value)) return false;
  throw new ChatwireError('CONFIGURATION', `${name} must be 1 or 0 (true or false), got '${env[name]}'`);
}

/** One of `choices`; unset or empty: undefined. */
export function envChoice<T extends string>(env: Env, name: string, choices: readonly T[]): T | undefined {
  const value = raw(env, name);
  if (value === undefined) return undefined;
  if (!(choices as readonly string[]).includes(value)) {
    throw new ChatwireError('CONFIGURATION', `${name} must be one of ${choices.join(', ')}, got '${env[name]}'`);
  }
  return value as T;
}
