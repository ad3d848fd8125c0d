import type { RecordEnvelope } from '@chatwire/storage';
import { describe, expect, it } from 'vitest';
import type { MessageData } from '../records/chat-collections.js';
import { ChatTree } from './chat-tree.js';

/** A row; `parent` undefined: written as linear history (no field), null: a first message of a tree. */
function row(recordId: string, role: 'user' | 'assistant', parent?: string | null, messageId?: string): RecordEnvelope<MessageData> {
  const data: MessageData = { chatId: 'c', userId: 'u', role, content: recordId, ...(parent === undefined ? {} : { parentId: parent }), ...(messageId ? { messageId } : {}) };
  return { recordId, data, createdAt: '', updatedAt: '' };
}

describe('ChatTree', () => {
  it('reads rows without parentId as one path in insertion order', () => {
    const tree = new ChatTree([row('u1', 'user'), row('a1', 'assistant'), row('u2', 'user'), row('a2', 'assistant')]);
    expect(tree.pathTo(tree.activeLeaf(undefined)).map((r) => r.recordId)).toEqual(['u1', 'a1', 'u2', 'a2']);
    expect(tree.positionOf('u2')).toEqual({ parentId: 'a1', index: 0, count: 1, prevId: null, nextId: null });
  });

  it('positions siblings in creation order by the ids clients know; the newest leaf under a message; a missing active leaf falls back to the last row', () => {
    const tree = new ChatTree([
      row('u.hashed', 'user', undefined, 'u1'),
      row('a1', 'assistant'),
      row('a1b', 'assistant', 'u.hashed'),
      row('e1', 'user', null),
      row('ae1', 'assistant', 'e1'),
      row('u2', 'user', 'a1'),
      row('a2', 'assistant', 'u2'),
    ]);
    expect(tree.positionOf('a1b')).toEqual({ parentId: 'u1', index: 1, count: 2, prevId: 'a1', nextId: null });
    expect(tree.positionOf('u.hashed')).toEqual({ parentId: null, index: 0, count: 2, prevId: null, nextId: 'e1' });
    expect(tree.positionOfNewChild('u.hashed')).toEqual({ parentId: 'u1', index: 2, count: 3, prevId: 'a1b', nextId: null });
    // a2 (under a1) is newer than a1b: the newest leaf under the first question.
    expect(tree.newestLeafUnder('u.hashed')).toBe('a2');
    expect(tree.newestLeafUnder('a1b')).toBe('a1b');
    expect(tree.pathTo('a2').map((r) => r.recordId)).toEqual(['u.hashed', 'a1', 'u2', 'a2']);
    expect(tree.pathTo('ae1').map((r) => r.recordId)).toEqual(['e1', 'ae1']);
    expect(tree.activeLeaf('gone')).toBe('a2');
    expect(tree.activeLeaf('ae1')).toBe('ae1');
    expect(tree.pathTo(null)).toEqual([]);
  });
});
