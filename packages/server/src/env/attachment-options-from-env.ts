import { attachments, type ChatServiceOptions } from '@chatwire/core';

type AttachmentOptions = NonNullable<ChatServiceOptions['attachments']>;

/**
 * The attachment settings of the environment: the limits (`CHATWIRE_ATTACHMENT_MAX_FILE_BYTES`,
 * `_MAX_FILES`, `_MAX_TURN_BYTES`, `_QUOTA_BYTES`, `_URL_TTL_MS`, `_UNATTACHED_TTL_MS`), the content-URL key
 * (`CHATWIRE_ATTACHMENT_URL_SECRET`) and what models read (`CHATWIRE_MODEL_INPUTS`). A malformed value is a
 * CONFIGURATION error naming its variable. The blob store is code's choice (memory by default).
 */
export function attachmentOptionsFromEnv(env: Record<string, string | undefined>): { attachments?: AttachmentOptions } {
  const limits = attachments.attachmentLimitsFromEnv(env);
  const modelInputs = attachments.parseModelInputs(env.CHATWIRE_MODEL_INPUTS);
  const urlSecret = env.CHATWIRE_ATTACHMENT_URL_SECRET?.trim();
  const options: AttachmentOptions = { ...limits, ...(modelInputs ? { modelInputs } : {}), ...(urlSecret ? { urlSecret } : {}) };
  return Object.keys(options).length === 0 ? {} : { attachments: options };
}
