import { expect, it } from 'vitest';
import { attachmentOptionsFromEnv } from './attachment-options-from-env.js';

it('reads the attachment limits, the URL key and CHATWIRE_MODEL_INPUTS; nothing set is nothing', () => {
  expect(attachmentOptionsFromEnv({})).toEqual({});
  expect(
    attachmentOptionsFromEnv({
      CHATWIRE_ATTACHMENT_MAX_FILE_BYTES: '5242880',
      CHATWIRE_ATTACHMENT_MAX_FILES: '4',
      CHATWIRE_ATTACHMENT_MAX_TURN_BYTES: '8000000',
      CHATWIRE_ATTACHMENT_QUOTA_BYTES: '100000000',
      CHATWIRE_ATTACHMENT_URL_SECRET: 'a-key',
      CHATWIRE_MODEL_INPUTS: 'alpha-sonnet-4-6=text,image,pdf; gamma-oss-120b=image',
    }),
  ).toEqual({
    attachments: {
      maxFileBytes: 5242880,
      maxFilesPerMessage: 4,
      maxTurnBytes: 8000000,
      quotaBytesPerUser: 100000000,
      urlSecret: 'a-key',
      modelInputs: { 'alpha-sonnet-4-6': ['text', 'image', 'pdf'], 'gamma-oss-120b': ['text', 'image'] },
    },
  });
});

it('a malformed value is a CONFIGURATION error naming its variable', () => {
  expect(() => attachmentOptionsFromEnv({ CHATWIRE_ATTACHMENT_MAX_FILES: '1.5' })).toThrow(/CHATWIRE_ATTACHMENT_MAX_FILES/);
  expect(() => attachmentOptionsFromEnv({ CHATWIRE_ATTACHMENT_QUOTA_BYTES: '0' })).toThrow(/CHATWIRE_ATTACHMENT_QUOTA_BYTES/);
  expect(() => attachmentOptionsFromEnv({ CHATWIRE_MODEL_INPUTS: 'alpha-sonnet-4-6=text,video' })).toThrow(/CHATWIRE_MODEL_INPUTS.*video/);
  expect(() => attachmentOptionsFromEnv({ CHATWIRE_MODEL_INPUTS: 'alpha-sonnet-4-6' })).toThrow(/CHATWIRE_MODEL_INPUTS/);
});
