/** Catalog names of the eight built-in tools, in the order they are offered. */
export const BUILT_IN_TOOLS = [
  'schema.list',
  'schema.describe',
  'records.query',
  'records.get',
  'records.create',
  'records.update',
  'records.delete',
  'user.current',
] as const;

export type BuiltInToolName = (typeof BUILT_IN_TOOLS)[number];

/** Preset for a stricter assistant: `allow: READ_ONLY_TOOLS` offers no tool that writes. */
export const READ_ONLY_TOOLS: readonly BuiltInToolName[] = [
  'schema.list',
  'schema.describe',
  'records.query',
  'records.get',
  'user.current',
];
