import { randomBytes } from 'node:crypto';
import { createMemoryBlobStore, createRecordStore } from '@chatwire/storage';
import { createMemoryDriver } from '@chatwire/storage/memory';
import { describe, expect, it } from 'vitest';
import { AI_ATTACHMENTS } from '../records/attachment-collection.js';
import { createAttachmentService } from './create-attachment-service.js';

const DAY = 24 * 60 * 60_000;
const alice = { userId: 'alice' };

async function* once(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes;
}

function setup() {
  const base = Date.now();
  let clock = base;
  const store = createRecordStore({ driver: createMemoryDriver() });
  const blobs = createMemoryBlobStore({ now: () => clock });
  const service = createAttachmentService(store, { blobs });
  const upload = () => service.upload(alice, { body: once(new TextEncoder().encode('hello')), contentType: 'text/plain', filename: 'a.txt' });
  const putAt = async (key: string, at: number) => {
    clock = at;
    await blobs.put(key, once(new Uint8Array([1])));
    clock = base;
  };
  const keys = async () => {
    const found: string[] = [];
    for await (const { key } of blobs.list!()) found.push(key);
    return found.sort();
  };
  return { base, store, blobs, service, upload, putAt, keys };
}

/** A key of the format uploads use: an attachment id (`att_` and 22 characters) then 32 more. */
const uploadKey = () => `att_${randomBytes(16).toString('base64url')}${randomBytes(24).toString('base64url')}`;

describe('attachment sweep', () => {
  it('deletes old unattached uploads and old bytes without a row; keeps attached ones, recent bytes and keys of another format', async () => {
    const { base, store, service, upload, putAt, keys } = setup();
    const unattached = await upload();
    const attached = await upload();
    await store.asServer().update(AI_ATTACHMENTS, attached.attachmentId, { chatId: 'c1', messageId: 'm1' });
    const orphan = uploadKey();
    const recentOrphan = uploadKey();
    await putAt(orphan, base);
    await putAt(recentOrphan, base + 1.5 * DAY);
    await putAt('legacy_key_of_another_format', base);
    const attachedKey = (await store.asServer().get<{ blobKey: string }>(AI_ATTACHMENTS, attached.attachmentId)).data.blobKey;

    expect(await service.sweep(base + 2 * DAY)).toBe(2); // the unattached upload, the orphan
    await expect(service.get(alice, unattached.attachmentId)).rejects.toMatchObject({ code: 'ATTACHMENT_NOT_FOUND' });
    expect(await keys()).toEqual([attachedKey, 'legacy_key_of_another_format', recentOrphan].sort());

    // A later sweep looks at what grew old since: the recent orphan now goes.
    expect(await service.sweep(base + 3 * DAY)).toBe(1);
    expect(await keys()).toEqual([attachedKey, 'legacy_key_of_another_format'].sort());
    expect((await service.content(alice, attached.attachmentId)).bytes).toEqual(new TextEncoder().encode('hello'));
  });

  it('the quota counts what is stored: deleted and swept uploads give their bytes back, rows from before usage rows count', async () => {
    const base = Date.now();
    const store = createRecordStore({ driver: createMemoryDriver() });
    const service = createAttachmentService(store, { quotaBytesPerUser: 12 });
    const up = (text: string) => service.upload(alice, { body: once(new TextEncoder().encode(text)), contentType: 'text/plain', filename: 't.txt' });
    // A row stored before usage rows existed (no usage row yet): counted on the first upload.
    await store.asServer().create(AI_ATTACHMENTS, { userId: 'alice', mediaType: 'text/plain', filename: 'old.txt', size: 4, sha256: 'x', blobKey: 'old' }, { recordId: 'att_old' });
    const first = await up('12345678'); // 4 + 8 = 12
    await expect(up('x')).rejects.toMatchObject({ code: 'QUOTA_EXCEEDED' });
    await service.delete(alice, first.attachmentId);
    const second = await up('1234');
    await expect(up('123456')).rejects.toMatchObject({ code: 'QUOTA_EXCEEDED' }); // 4 + 4 + 6 > 12
    await service.sweep(base + 2 * DAY); // both unattached rows are old then
    await up('12345678abcd');
    await expect(service.get(alice, second.attachmentId)).rejects.toMatchObject({ code: 'ATTACHMENT_NOT_FOUND' });
  });
});
