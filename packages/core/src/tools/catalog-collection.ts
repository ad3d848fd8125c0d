import { ChatwireError, type CollectionDefinition, type RecordAccess } from '@chatwire/storage';

/** `ai-*` collections (chats, messages, turns) and every `hidden` collection never reach the catalog. */
export function isHiddenFromCatalog(definition: CollectionDefinition): boolean {
  return definition.hidden === true || definition.name.startsWith('ai-');
}

/** Collections the caller may use through the catalog: what the access layer lists, minus hidden ones. */
export function catalogCollections(records: RecordAccess): CollectionDefinition[] {
  return records.listCollections().filter((definition) => !isHiddenFromCatalog(definition));
}

/**
 * The definition of a collection the caller may use through the catalog. Unknown, hidden and
 * unreadable-and-uncreatable collections all give the same NOT_FOUND, so the model cannot tell them apart.
 */
export function resolveCatalogCollection(records: RecordAccess, name: string, toolName: string): CollectionDefinition {
  const definition = catalogCollections(records).find((candidate) => candidate.name === name);
  if (definition === undefined) {
    throw new ChatwireError(
      'NOT_FOUND',
      `${toolName}: no collection '${name}'; call schema_list to see the collections you can use`,
      { details: { collection: name } },
    );
  }
  return definition;
}

/** The data field that holds a row's owner (`'own'` rules compare it with the caller's user id). */
export function ownerFieldOf(definition: CollectionDefinition): string {
  return definition.ownerField ?? 'userId';
}
