import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChatwireError, type StoreDriver } from '@chatwire/storage';
import { backends, type OpenedBackend } from './testing/test-backends.js';

for (const backend of backends) {
  describe.skipIf(backend.skipReason !== '')(`transaction() on ${backend.name} ${backend.skipReason}`, () => {
    let opened: OpenedBackend;
    beforeAll(async () => {
      opened = await backend.open('tx');
    });
    afterAll(() => opened?.cleanup());

    it('commits every write of fn together and returns its value', async () => {
      const driver = opened.driver;
      const value = await driver.transaction(async (tx) => {
        await tx.insert('ai-messages', { recordId: 'u1', data: { chatId: 'c1', role: 'user' } });
        await tx.insert('ai-messages', { recordId: 'a1', data: { chatId: 'c1', role: 'assistant' } });
        await tx.insert('ai-turns', { recordId: 't1', data: { chatId: 'c1' } });
        return 'done';
      });
      expect(value).toBe('done');
      const page = await driver.query('ai-messages', { filter: { chatId: 'c1' }, limit: 10 });
      expect(page.records.map((r) => r.recordId)).toEqual(['u1', 'a1']);
      expect(await driver.get('ai-turns', 't1')).not.toBeNull();
    });

    it('rolls back every write when fn throws, and rethrows the error', async () => {
      const driver = opened.driver;
      await driver.insert('ai-chats', { recordId: 'chat-x', data: { userId: 'u' } });
      await driver.insert('ai-messages', { recordId: 'm-x', data: { chatId: 'chat-x' } });
      const failure = new Error('boom');
      await expect(
        driver.transaction(async (tx) => {
          // The cascade delete of a chat, then a failure before it finishes.
          expect(await tx.deleteWhere('ai-messages', { chatId: 'chat-x' })).toBe(1);
          expect(await tx.delete('ai-chats', 'chat-x')).toBe(true);
          await tx.insert('ai-turns', { recordId: 't-x', data: {} });
          await tx.update('ai-chats', 'chat-y', { title: 'nope' });
          throw failure;
        }),
      ).rejects.toBe(failure);
      expect(await driver.get('ai-chats', 'chat-x')).not.toBeNull();
      expect(await driver.get('ai-messages', 'm-x')).not.toBeNull();
      expect(await driver.get('ai-turns', 't-x')).toBeNull();
    });

    it('rolls back when a statement inside fails (CONFLICT) and fn lets it escape', async () => {
      const driver = opened.driver;
      await driver.insert('notes', { recordId: 'n1', data: { v: 1 } });
      await expect(
        driver.transaction(async (tx) => {
          await tx.insert('notes', { recordId: 'n2', data: { v: 2 } });
          await tx.insert('notes', { recordId: 'n1', data: { v: 'different' } });
        }),
      ).rejects.toMatchObject({ code: 'CONFLICT' });
      expect(await driver.get('notes', 'n2')).toBeNull();
    });

    it('nested transaction() calls reuse the enclosing transaction', async () => {
      const driver = opened.driver;
      let inner: StoreDriver | undefined;
      let outer: StoreDriver | undefined;
      await expect(
        driver.transaction(async (tx) => {
          outer = tx;
          await tx.transaction?.(async (nested) => {
            inner = nested;
            await nested.insert('nested', { recordId: 'n', data: {} });
          });
          expect(await tx.get('nested', 'n')).not.toBeNull();
          throw new Error('undo all');
        }),
      ).rejects.toThrow('undo all');
      expect(inner).toBe(outer);
      expect(await driver.get('nested', 'n')).toBeNull();
    });

    // PGlite is one connection: there, outside queries wait for the transaction instead (next test).
    if (backend.name !== 'pglite') it('keeps uncommitted writes invisible to other connections until COMMIT', async () => {
      const driver = opened.driver;
      const peer = await opened.openPeer();
      let seenInside: unknown = 'not checked';
      await driver.transaction(async (tx) => {
        await tx.insert('iso', { recordId: 'i1', data: {} });
        seenInside = await peer.get('iso', 'i1');
      });
      expect(seenInside).toBeNull();
      expect(await peer.get('iso', 'i1')).not.toBeNull();
    });

    if (backend.name === 'pglite') it('makes outside queries wait for the transaction on PGlite (one connection)', async () => {
      const driver = opened.driver;
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const tx = driver.transaction(async (t) => {
        await t.insert('wait', { recordId: 'w1', data: {} });
        await gate;
      });
      await new Promise((resolve) => setTimeout(resolve, 20));
      const outside = driver.get('wait', 'w1');
      release();
      await tx;
      expect(await outside).not.toBeNull();
    });

    it('a failed statement that fn catches still rolls the transaction back and rejects with that error', async () => {
      const driver = opened.driver;
      const tooBig = randomBytes(30_000).toString('base64'); // incompressible: too large for the chat index
      let later: unknown;
      const outcome = await driver
        .transaction(async (tx) => {
          await tx.insert('aborted', { recordId: 'kept?', data: {} });
          // A PostgreSQL error (index row too large) aborts the transaction; fn swallows it.
          await tx.insert('aborted', { recordId: 'big', data: { chatId: tooBig } }).catch(() => undefined);
          later = await tx.get('aborted', 'kept?').catch((e: unknown) => e);
          return 'looks fine';
        })
        .catch((e: unknown) => e);
      expect(ChatwireError.is(outcome, 'VALIDATION')).toBe(true);
      expect(ChatwireError.is(later, 'INTERNAL')).toBe(true);
      expect(await driver.get('aborted', 'kept?')).toBeNull();
    });

    it('refuses the transaction driver once the transaction ended', async () => {
      let leaked: StoreDriver | undefined;
      await opened.driver.transaction(async (tx) => {
        leaked = tx;
      });
      await expect(leaked?.get('x', 'y')).rejects.toMatchObject({ code: 'INTERNAL' });
    });
  });
}
