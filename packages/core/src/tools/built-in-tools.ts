import type { RecordAccess } from '@chatwire/storage';
import type { BuiltInToolName } from './built-in-tool-names.js';
import { createRecordsCreateTool } from './records-create-tool.js';
import { createRecordsDeleteTool } from './records-delete-tool.js';
import { createRecordsGetTool } from './records-get-tool.js';
import { createRecordsQueryTool } from './records-query-tool.js';
import { createRecordsUpdateTool } from './records-update-tool.js';
import { createSchemaDescribeTool } from './schema-describe-tool.js';
import { createSchemaListTool } from './schema-list-tool.js';
import type { ChatwireTool } from './tool-types.js';
import { createUserCurrentTool } from './user-current-tool.js';

export interface BuiltInToolSettings {
  defaultQueryLimit: number;
  maxQueryLimit: number;
  usersCollection?: string | undefined;
  serverRecords?: (() => RecordAccess) | undefined;
}

/** The eight built-in tools keyed by catalog name. */
export function createBuiltInTools(settings: BuiltInToolSettings): Record<BuiltInToolName, ChatwireTool> {
  return {
    'schema.list': createSchemaListTool(),
    'schema.describe': createSchemaDescribeTool(),
    'records.query': createRecordsQueryTool({ defaultLimit: settings.defaultQueryLimit, maxLimit: settings.maxQueryLimit }),
    'records.get': createRecordsGetTool(),
    'records.create': createRecordsCreateTool(),
    'records.update': createRecordsUpdateTool(),
    'records.delete': createRecordsDeleteTool(),
    'user.current': createUserCurrentTool({
      usersCollection: settings.usersCollection,
      serverRecords: settings.serverRecords,
    }),
  };
}
