import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, openExamplePage, type ExamplePage } from './testing/open-example-page.js';

// Thumbs on answers, the "Share" button and the read-only shared view, in Debian's chromium through
// playwright-core, by roles and accessible names. Run: pnpm --filter @chatwire/example-fetch test:browser

describe('feedback and share links on the example page', () => {
  let opened: ExamplePage;
  let page: Page;

  beforeAll(async () => {
    opened = await openExamplePage({ app: { demoChunkDelayMs: 0, onError: () => undefined }, context: { viewport: { width: 1200, height: 800 }, permissions: ['clipboard-read', 'clipboard-write'] }, signInAs: 'Rater' });
    page = opened.page;
    page.on('dialog', (dialog) => void dialog.accept());
  });

  afterAll(async () => {
    await opened?.close();
  });

  const answers = () => page.getByRole('log', { name: 'Messages' }).getByRole('article', { name: 'Assistant' });
  const thumb = (index: number, name: 'Good answer' | 'Bad answer') => answers().nth(index).getByRole('button', { name, exact: true });
  const pressed = (index: number) =>
    Promise.all([thumb(index, 'Good answer').getAttribute('aria-pressed'), thumb(index, 'Bad answer').getAttribute('aria-pressed')]);

  async function send(content: string): Promise<void> {
    const before = await answers().count();
    await page.getByRole('textbox', { name: 'Message' }).fill(content);
    await page.getByRole('button', { name: 'Send' }).click();
    await eventually(() => answers().count()).toBe(before + 1);
    await eventually(() => page.getByRole('button', { name: 'Send' }).isDisabled()).toBe(false);
  }

  it('answers two messages (one with a tool call)', async () => {
    await page.getByRole('button', { name: 'New chat' }).click();
    await send('create a note titled Milk');
    await send('hello there');
    // No thumbs on questions.
    expect(await page.getByRole('article', { name: 'You' }).getByRole('button', { name: 'Good answer' }).count()).toBe(0);
  });

  it('rates answers with the thumbs, shows the choice, keeps it after a reload, and takes it back', async () => {
    await eventually(() => pressed(0)).toEqual(['false', 'false']);
    await thumb(0, 'Good answer').click();
    await eventually(() => pressed(0)).toEqual(['true', 'false']);
    await thumb(1, 'Bad answer').click();
    await eventually(() => pressed(1)).toEqual(['false', 'true']);

    await page.reload();
    await eventually(() => answers().count()).toBe(2);
    await eventually(() => pressed(0)).toEqual(['true', 'false']);
    expect(await pressed(1)).toEqual(['false', 'true']);

    // Another thumb changes the rating; the pressed one takes it back.
    await thumb(0, 'Bad answer').click();
    await eventually(() => pressed(0)).toEqual(['false', 'true']);
    await thumb(1, 'Bad answer').click();
    await eventually(() => pressed(1)).toEqual(['false', 'false']);
    await page.reload();
    await eventually(() => answers().count()).toBe(2);
    await eventually(() => pressed(0)).toEqual(['false', 'true']);
    expect(await pressed(1)).toEqual(['false', 'false']);
  });

  it('"Share" shows and copies a link whose read-only view has the chat as it was, tools by name only', async () => {
    await page.getByRole('button', { name: 'Share' }).click();
    const link = page.getByRole('textbox', { name: 'Share link' });
    await eventually(() => link.inputValue()).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${opened.server.port}/shared/[A-Za-z0-9_-]{22}$`));
    const url = await link.inputValue();
    await eventually(() => page.getByRole('status').textContent()).toBe('Link copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);

    await send('one more after sharing');
    const viewer = await opened.browser.newContext({ viewport: { width: 375, height: 740 } }); // nobody signed in
    try {
      const shared = await viewer.newPage();
      const response = await shared.goto(url);
      expect(response?.headers()['x-robots-tag']).toBe('noindex');
      expect(response?.headers()['referrer-policy']).toBe('no-referrer');
      const messages = shared.getByRole('log', { name: 'Messages' }).getByRole('article');
      await eventually(() => messages.count()).toBe(4);
      expect(await messages.evaluateAll((items) => items.map((item) => item.getAttribute('aria-label')))).toEqual(['You', 'Assistant', 'You', 'Assistant']);
      const text = (await shared.getByRole('log', { name: 'Messages' }).textContent()) ?? '';
      expect(text).toContain('create a note titled Milk');
      expect(text).toContain('Tool records_create');
      expect(text).not.toContain('one more after sharing');
      expect(await shared.getByRole('heading', { level: 2 }).textContent()).toBe('New chat');
      for (const name of ['Send', 'Good answer', 'Bad answer', 'Share', 'Regenerate']) {
        expect(await shared.getByRole('button', { name }).count()).toBe(0);
      }
      expect(await shared.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

      // Deleting the chat makes the link dead at once.
      await page.getByRole('button', { name: 'Delete' }).click();
      await eventually(() => page.getByRole('list', { name: 'Chats' }).getByRole('listitem').count()).toBe(0);
      await shared.reload();
      await eventually(() => shared.getByRole('alert').textContent()).toBe('This link does not exist or no longer works.');
      expect(await shared.getByRole('article').count()).toBe(0);
    } finally {
      await viewer.close();
    }
  });
});
