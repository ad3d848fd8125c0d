import { ChatwireError } from '@chatwire/storage';

export interface AttachmentLimits {
  /** Bytes of one file (default 10 MiB). */
  maxFileBytes: number;
  /** Attachments of one message (default 10). */
  maxFilesPerMessage: number;
  /** Bytes of the attachments a turn sends (default 20 MiB). */
  maxTurnBytes: number;
  /** Bytes a user may have stored, attached or not (default 1 GiB). */
  quotaBytesPerUser: number;
  /** How long a signed content URL works (default 15 min). */
  urlTtlMs: number;
  /** An upload no stored message uses is deleted after this long (default a day). */
  unattachedTtlMs: number;
}

export const DEFAULT_ATTACHMENT_LIMITS: AttachmentLimits = {
  maxFileBytes: 10 * 1024 * 1024,
  maxFilesPerMessage: 10,
  maxTurnBytes: 20 * 1024 * 1024,
  quotaBytesPerUser: 1024 * 1024 * 1024,
  urlTtlMs: 15 * 60_000,
  unattachedTtlMs: 24 * 60 * 60_000,
};

/** Each limit's environment variable. */
export const ATTACHMENT_LIMIT_VARIABLES: Readonly<Record<keyof AttachmentLimits, string>> = {
  maxFileBytes: 'CHATWIRE_ATTACHMENT_MAX_FILE_BYTES',
  maxFilesPerMessage: 'CHATWIRE_ATTACHMENT_MAX_FILES',
  maxTurnBytes: 'CHATWIRE_ATTACHMENT_MAX_TURN_BYTES',
  quotaBytesPerUser: 'CHATWIRE_ATTACHMENT_QUOTA_BYTES',
  urlTtlMs: 'CHATWIRE_ATTACHMENT_URL_TTL_MS',
  unattachedTtlMs: 'CHATWIRE_ATTACHMENT_UNATTACHED_TTL_MS',
};

/** The limits with defaults; a value that is not a positive whole number is a CONFIGURATION error naming it. */
export function resolveAttachmentLimits(given: Partial<AttachmentLimits> = {}): AttachmentLimits {
  const limits = { ...DEFAULT_ATTACHMENT_LIMITS };
  for (const name of Object.keys(DEFAULT_ATTACHMENT_LIMITS) as (keyof AttachmentLimits)[]) {
    const value = given[name];
    if (value === undefined) continue;
    if (!Number.isSafeInteger(value) || value <= 0) {
      throw new ChatwireError('CONFIGURATION', `attachments: "${name}" must be a positive whole number, got ${String(value)}`, { details: { option: name } });
    }
    limits[name] = value;
  }
  return limits;
}

/** The limits set in `env` (unset variables are left out); a malformed value is a CONFIGURATION error naming the variable. */
export function attachmentLimitsFromEnv(env: Record<string, string | undefined>): Partial<AttachmentLimits> {
  const out: Partial<AttachmentLimits> = {};
  for (const [name, variable] of Object.entries(ATTACHMENT_LIMIT_VARIABLES) as [keyof AttachmentLimits, string][]) {
    const raw = env[variable];
    if (raw === undefined || raw.trim() === '') continue;
    const value = Number(raw.trim());
    if (!/^\d+$/.test(raw.trim()) || !Number.isSafeInteger(value) || value <= 0) {
      throw new ChatwireError('CONFIGURATION', `${variable} must be a positive whole number, got ${JSON.stringify(raw)}`, { details: { variable } });
    }
    out[name] = value;
  }
  return out;
}
