import { deflateSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, openExamplePage, type ExamplePage } from './testing/open-example-page.js';

// Attachments on the example page in Debian's chromium (apt-get install -y chromium) through playwright-core,
// by roles and accessible names. Run: pnpm --filter @chatwire/example-fetch test:browser

/** A real 8x6 PNG of one colour. */
function png(): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes: Buffer) => {
    let c = 0xffffffff;
    for (const byte of bytes) c = crcTable[(c ^ byte) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc(body), body.length + 4);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(8, 0);
  header.writeUInt32BE(6, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: 8 }, () => [20, 120, 220]).flat())]);
  const raw = Buffer.concat(Array.from({ length: 6 }, () => row));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

describe('browser chat page: attachments', () => {
  let opened: ExamplePage;
  let page: Page;

  beforeAll(async () => {
    opened = await openExamplePage({ app: { demoChunkDelayMs: 1, onError: () => undefined }, context: { viewport: { width: 1200, height: 700 } } });
    page = opened.page;
  });

  afterAll(async () => {
    await opened?.close();
  });

  const messages = () => page.getByRole('log', { name: 'Messages' }).getByRole('article');
  const previews = () => page.getByRole('list', { name: 'Attachments' }).getByRole('listitem');

  it('attaches an image and a text file, previews them, sends, and shows the image (and a chip for the text file) after a reload', async () => {
    await page.getByRole('textbox', { name: 'Name' }).fill('Attach Tester');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    await page.getByRole('button', { name: 'New chat' }).click();

    // The composer shows once the new chat is open (after its POST /chats).
    await eventually(() => page.getByRole('button', { name: 'Attach' }).isVisible()).toBe(true);
    await page.locator('#attach-input').setInputFiles([
      { name: 'dot.png', mimeType: 'image/png', buffer: png() },
      { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('Buy milk') },
    ]);
    await eventually(() => previews().count()).toBe(2);
    expect(await previews().first().getByRole('img', { name: 'dot.png' }).isVisible()).toBe(true);
    expect(await previews().nth(1).textContent()).toContain('notes.txt');
    // A preview can be taken out again, and put back by pasting into the message box.
    await page.getByRole('button', { name: 'Remove notes.txt' }).click();
    await eventually(() => previews().count()).toBe(1);
    await page.getByRole('textbox', { name: 'Message' }).evaluate((box) => {
      const data = new DataTransfer();
      data.items.add(new File(['Buy milk'], 'notes.txt', { type: 'text/plain' }));
      box.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    });
    await eventually(() => previews().count()).toBe(2);

    await page.getByRole('textbox', { name: 'Message' }).fill('What is in the picture?');
    await page.getByRole('button', { name: 'Send' }).click();
    await eventually(() => messages().count()).toBe(2);
    await eventually(() => page.getByRole('button', { name: 'Send' }).isDisabled()).toBe(false);
    expect(await previews().count()).toBe(0);

    await page.reload();
    await eventually(() => messages().count()).toBe(2);
    const image = messages().first().getByRole('img', { name: 'dot.png' });
    await eventually(() => image.evaluate((node) => (node as HTMLImageElement).complete && (node as HTMLImageElement).naturalWidth)).toBe(8);
    const chip = messages().first().getByRole('link', { name: 'notes.txt' });
    expect(await chip.isVisible()).toBe(true);
    const href = await chip.getAttribute('href');
    expect(href).toMatch(/\/attachments\/att_[\w-]+\/content\?expires=\d+&sig=/);
    // The signed link works without a token; the bytes are the text file's.
    const res = await fetch(href!);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('Buy milk');
  });
});
