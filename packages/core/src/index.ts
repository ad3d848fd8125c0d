// @chatwire/core: the chat service and the turn engine, without HTTP. The export list is deliberate and
// snapshotted in public-exports.test.ts; `ChatwireError` is owned by @chatwire/storage.

// the chat service and its records
export { createChatService } from './chat/chat-service.js';
export type { ChatService, ChatServiceOptions } from './chat/chat-service.js';
export { AI_CHATS, AI_MESSAGES, AI_TURNS } from './records/chat-collections.js';
export type { Chat, MessageData } from './records/chat-collections.js';
export { userMessageRecordId } from './records/message-record-id.js';
export type { TurnInput } from './turn/turn-input.js';
export { API_SCHEMAS } from './chat/schemas/api-schemas.js';

// turns
export type { StartedTurn, ResumedTurn, TurnOptions, ErrorContext, ErrorReporter } from './turn/turn-types.js';
export type { TurnEnding } from './turn/turn-ending.js';
// Tool approval's types, as one namespace: `approval.NeedsApproval`, `approval.PendingApproval`...
export type * as approval from './approval/public-types.js';
// The hub building blocks for other packages' hubs and buses (memory and layered hubs, log endings, bus events).
export * as hub from './hub/index.js';
export type { TurnHub, TurnBus, TurnBusEvent, TurnLogWriter, AttachedTurn } from './hub/turn-hub.js';

// models
export { createModelRegistry } from './models/create-model-registry.js';
export type { ModelRegistry, ModelRegistryOptions } from './models/create-model-registry.js';
export { MODEL_ALLOW_LIST, DEFAULT_MODEL_ID, type ModelId } from './models/model-allow-list.js';
export { modelOptionsFromEnv } from './models/model-options-from-env.js';
export { createDemoModel } from './demo/create-demo-model.js';

// tools
export { createToolCatalog } from './tools/create-tool-catalog.js';
export { BUILT_IN_TOOLS, READ_ONLY_TOOLS } from './tools/built-in-tool-names.js';
export type { ChatwireTool, ToolCatalog, ToolContext } from './tools/tool-types.js';
export type { ToolCatalogOptions } from './tools/tool-catalog-options.js';
// A source of tools that live elsewhere (MCP servers): its other types are reachable through its members.
export type { ToolSource } from './tools/tool-source.js';

// compaction
export type { CompactionConfig, Summarizer } from './compaction/compaction-types.js';
// Attachments: uploads, their limits and what models read (`attachments.createAttachmentService`, ...).
export * as attachments from './attachments/index.js';
