/**
 * Tree history: where a message sits among its siblings (the messages with the same parent), by the ids
 * the client knows. `index` counts from 0 in the order the siblings were created; show `index + 1`/`count`.
 */
export interface BranchPosition {
  /** The parent's id; null for a first message. */
  parentId: string | null;
  index: number;
  count: number;
  /** The sibling before this one (switch to it with `switchBranch`), or null. */
  prevId: string | null;
  /** The sibling after this one, or null. */
  nextId: string | null;
}

/** A `branch` value as the server sends it, or undefined for anything else. */
export function readBranchPosition(value: unknown): BranchPosition | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  const id = (x: unknown) => x === null || typeof x === 'string';
  const count = (x: unknown) => typeof x === 'number' && Number.isInteger(x) && x >= 0;
  if (!id(v.parentId) || !id(v.prevId) || !id(v.nextId) || !count(v.index) || !count(v.count)) return undefined;
  return { parentId: v.parentId as string | null, index: v.index as number, count: v.count as number, prevId: v.prevId as string | null, nextId: v.nextId as string | null };
}
