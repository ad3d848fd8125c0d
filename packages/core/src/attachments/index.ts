export { createAttachmentService } from './create-attachment-service.js';
export type { AttachmentOptions, AttachmentService, AttachmentRow, UploadInput } from './create-attachment-service.js';
export { DEFAULT_ATTACHMENT_LIMITS, ATTACHMENT_LIMIT_VARIABLES, attachmentLimitsFromEnv, resolveAttachmentLimits } from './attachment-limits.js';
export type { AttachmentLimits } from './attachment-limits.js';
export { MODEL_INPUTS, ATTACHMENT_MEDIA_TYPES } from './attachment-media-types.js';
export type { ModelInput } from './attachment-media-types.js';
export { cleanFilename } from './clean-filename.js';
export { AI_ATTACHMENTS } from '../records/attachment-collection.js';
export type { Attachment, FilePartData } from '../records/attachment-collection.js';
