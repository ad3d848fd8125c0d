import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, openExamplePage, type ExamplePage } from './testing/open-example-page.js';

// The search box of the example page in Debian's chromium (apt-get install -y chromium) through playwright-core,
// by roles and accessible names. Run: pnpm --filter @chatwire/example-fetch test:browser

describe('browser chat page: search', () => {
  let opened: ExamplePage;
  let page: Page;

  beforeAll(async () => {
    opened = await openExamplePage({ app: { demoChunkDelayMs: 1, onError: () => undefined }, context: { viewport: { width: 1200, height: 700 } } });
    page = opened.page;
  });

  afterAll(async () => {
    await opened?.close();
  });

  const searchBox = () => page.getByRole('searchbox', { name: 'Search chats' });
  const results = () => page.getByRole('list', { name: 'Search results' }).getByRole('link');
  const messages = () => page.getByRole('log', { name: 'Messages' }).getByRole('article');

  it('signs in and writes two chats', async () => {
    await page.getByRole('textbox', { name: 'Name' }).fill('Search Tester');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    await chat('Trip', ['Book a sleeper train to Zürich for the winter holidays', 'What about museums?', 'And the weather?', 'Thanks, that is all']);
    await chat('Groceries', ['Buy milk and bread']);
  });

  it('finds messages by words in any order, accents and case ignored, and opens the chat at the message', async () => {
    await searchBox().fill('ZURICH winter');
    await eventually(() => results().count()).toBe(2); // the question and the demo answer quoting it
    const first = results().first();
    expect(await first.textContent()).toContain('Trip');
    expect(await first.locator('mark').allTextContents()).toEqual(expect.arrayContaining(['Zürich', 'winter']));
    expect(await page.getByRole('list', { name: 'Chats' }).isVisible()).toBe(false); // the results replace the list

    const question = results().filter({ hasText: 'You:' });
    await question.click();
    await eventually(() => page.getByRole('heading', { level: 2, name: 'Trip' }).isVisible()).toBe(true);
    await eventually(() => messages().count()).toBe(8);
    // The message found is focused and in view, though the chat opened scrolled to its end.
    await eventually(() => page.evaluate(() => document.activeElement?.textContent ?? '')).toContain('Book a sleeper train to Zürich');
    expect(await messages().first().evaluate((node) => document.activeElement === node)).toBe(true);
    expect(await messages().first().isVisible()).toBe(true);
    const box = await messages().first().boundingBox();
    const log = await page.getByRole('log', { name: 'Messages' }).boundingBox();
    expect(box!.y + box!.height).toBeGreaterThan(log!.y);
    expect(box!.y).toBeLessThan(log!.y + log!.height);
  });

  it('finds chat titles; a query of only operators shows no matches, not an error; emptying the box shows the chats again', async () => {
    await searchBox().fill('groceries');
    await eventually(() => results().allTextContents()).toEqual([expect.stringContaining('Title: Groceries')]);
    await results().first().click();
    await eventually(() => page.getByRole('heading', { level: 2, name: 'Groceries' }).isVisible()).toBe(true);
    await searchBox().fill('" - or --');
    await eventually(() => page.getByRole('list', { name: 'Search results' }).textContent()).toBe('No matches');
    expect(await page.getByRole('alert').isVisible()).toBe(false);
    await searchBox().fill('');
    await eventually(() => page.getByRole('list', { name: 'Chats' }).getByRole('listitem').count()).toBe(2);
    expect(await page.getByRole('list', { name: 'Search results' }).isVisible()).toBe(false);
  });

  /** A new chat titled `title` with `questions` answered by the demo model. */
  async function chat(title: string, questions: string[]): Promise<void> {
    await page.getByRole('button', { name: 'New chat' }).click();
    await page.getByRole('button', { name: 'Rename' }).click();
    await page.getByRole('textbox', { name: 'Chat title' }).fill(title);
    await page.getByRole('button', { name: 'Save' }).click();
    await eventually(() => page.getByRole('heading', { level: 2, name: title }).isVisible()).toBe(true);
    for (const [i, question] of questions.entries()) {
      await page.getByRole('textbox', { name: 'Message' }).fill(question);
      await page.getByRole('button', { name: 'Send' }).click();
      await eventually(() => messages().count()).toBe(2 * (i + 1));
      await eventually(() => page.getByRole('button', { name: 'Send' }).isDisabled()).toBe(false);
    }
  }
});
