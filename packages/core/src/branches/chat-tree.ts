import type { RecordEnvelope } from '@chatwire/storage';
import type { MessageData } from '../records/chat-collections.js';
import { wireMessageId } from '../records/message-record-id.js';

type Row = RecordEnvelope<MessageData>;

/** Where a message sits among its siblings (the messages with the same parent), by the ids clients know. */
export interface BranchPosition {
  /** The parent's id (null for a first message). */
  parentId: string | null;
  /** From 0, in the order the siblings were created. */
  index: number;
  count: number;
  prevId: string | null;
  nextId: string | null;
}

/**
 * A chat's messages as a tree. A row's parent is its `parentId` (a recordId; null for a first message). A row
 * without the field was written as linear history: its parent is the row stored before it, so a linear chat
 * reads as one path with no migration step, and a tree grown from it keeps that path as its trunk.
 */
export class ChatTree {
  readonly byId = new Map<string, Row>();
  private readonly parents = new Map<string, string | null>();
  private readonly children = new Map<string | null, Row[]>();
  private readonly order = new Map<string, number>();

  /** `rows` in insertion order. */
  constructor(readonly rows: readonly Row[]) {
    let previous: string | null = null;
    rows.forEach((row, at) => {
      this.byId.set(row.recordId, row);
      this.order.set(row.recordId, at);
    });
    for (const row of rows) {
      const stored = row.data.parentId;
      const parent = stored === undefined ? previous : typeof stored === 'string' && this.byId.has(stored) ? stored : null;
      this.parents.set(row.recordId, parent);
      const siblings = this.children.get(parent);
      if (siblings) siblings.push(row);
      else this.children.set(parent, [row]);
      previous = row.recordId;
    }
  }

  parentOf(recordId: string): string | null {
    return this.parents.get(recordId) ?? null;
  }

  /** The children of `recordId` (null: the first messages), in creation order. */
  childrenOf(recordId: string | null): readonly Row[] {
    return this.children.get(recordId) ?? [];
  }

  /** The rows from the first message down to `recordId`, inclusive; empty for null or an unknown id. */
  pathTo(recordId: string | null): Row[] {
    const path: Row[] = [];
    for (let id = recordId; id !== null; id = this.parentOf(id)) {
      const row = this.byId.get(id);
      if (!row) break;
      path.push(row);
    }
    return path.reverse();
  }

  /** The newest leaf under `recordId` (itself when it has no children): the last created row of its subtree. */
  newestLeafUnder(recordId: string): string {
    let newest = recordId;
    let newestAt = this.order.get(recordId) ?? -1;
    const stack = [recordId];
    while (stack.length > 0) {
      for (const child of this.childrenOf(stack.pop()!)) {
        const at = this.order.get(child.recordId)!;
        if (this.childrenOf(child.recordId).length === 0 && at > newestAt) {
          newest = child.recordId;
          newestAt = at;
        }
        stack.push(child.recordId);
      }
    }
    return newest;
  }

  /** The chat's active leaf: `activeLeafId` while it names a row, else the last stored row (null: no rows). */
  activeLeaf(activeLeafId: unknown): string | null {
    if (typeof activeLeafId === 'string' && this.byId.has(activeLeafId)) return activeLeafId;
    return this.rows.at(-1)?.recordId ?? null;
  }

  /** The position of a stored row among its siblings. */
  positionOf(recordId: string): BranchPosition {
    const parent = this.parentOf(recordId);
    const siblings = this.childrenOf(parent);
    const index = siblings.findIndex((row) => row.recordId === recordId);
    return {
      parentId: parent === null ? null : this.wireId(parent),
      index,
      count: siblings.length,
      prevId: index > 0 ? wireMessageId(siblings[index - 1]!) : null,
      nextId: index >= 0 && index < siblings.length - 1 ? wireMessageId(siblings[index + 1]!) : null,
    };
  }

  /** The position a new child of `parent` will take: the last of its siblings. */
  positionOfNewChild(parent: string | null): BranchPosition {
    const siblings = this.childrenOf(parent);
    const last = siblings.at(-1);
    return {
      parentId: parent === null ? null : this.wireId(parent),
      index: siblings.length,
      count: siblings.length + 1,
      prevId: last ? wireMessageId(last) : null,
      nextId: null,
    };
  }

  private wireId(recordId: string): string {
    const row = this.byId.get(recordId);
    return row ? wireMessageId(row) : recordId;
  }
}
