import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, openExamplePage, type ExamplePage } from './testing/open-example-page.js';

// Branches on the example page (CHATWIRE_BRANCHING=1), in Debian's chromium through playwright-core, by roles
// and accessible names. Run: pnpm --filter @chatwire/example-fetch test:browser

describe('versions of messages on the example page (tree history)', () => {
  let opened: ExamplePage;
  let page: Page;

  beforeAll(async () => {
    opened = await openExamplePage({ env: { CHATWIRE_BRANCHING: '1' }, app: { demoChunkDelayMs: 0, onError: () => undefined }, signInAs: 'Brancher' });
    page = opened.page;
  });

  afterAll(async () => {
    await opened?.close();
  });

  const log = () => page.getByRole('log', { name: 'Messages' });
  const answers = () => log().getByRole('article', { name: 'Assistant' });
  const questions = () => log().getByRole('article', { name: 'You' });
  const idle = () => eventually(() => page.getByRole('button', { name: 'Send' }).isDisabled()).toBe(false);
  const position = (article: ReturnType<Page['locator']>) => article.getByRole('group', { name: 'Versions' }).textContent();
  const ids = () => log().getByRole('article').evaluateAll((items) => items.map((item) => item.getAttribute('data-id')));

  it('regenerate keeps the first answer: "‹ 2/2 ›", the previous version, and a reload keeps the choice', async () => {
    await page.getByRole('button', { name: 'New chat' }).click();
    await page.getByRole('textbox', { name: 'Message' }).fill('hello there');
    await page.getByRole('button', { name: 'Send' }).click();
    await eventually(() => answers().count()).toBe(1);
    await idle();
    const firstAnswer = await answers().first().getAttribute('data-id');
    expect(await answers().first().getByRole('group', { name: 'Versions' }).count()).toBe(0);

    await answers().last().getByRole('button', { name: 'Regenerate' }).click();
    await eventually(() => position(answers().last())).toContain('2/2');
    await idle();
    const secondAnswer = await answers().last().getAttribute('data-id');
    expect(secondAnswer).not.toBe(firstAnswer);
    expect(await answers().last().getByRole('button', { name: 'Next version' }).isDisabled()).toBe(true);

    await answers().last().getByRole('button', { name: 'Previous version' }).click();
    await eventually(() => answers().last().getAttribute('data-id')).toBe(firstAnswer);
    expect(await position(answers().last())).toContain('1/2');
    expect(await answers().last().getByRole('button', { name: 'Previous version' }).isDisabled()).toBe(true);

    await page.reload();
    await eventually(() => answers().count()).toBe(1);
    await eventually(() => answers().last().getAttribute('data-id')).toBe(firstAnswer);
    expect(await position(answers().last())).toContain('1/2');

    await answers().last().getByRole('button', { name: 'Next version' }).click();
    await eventually(() => answers().last().getAttribute('data-id')).toBe(secondAnswer);
  });

  it('edit keeps the first question: the question shows "2/2", switching back shows the first question and its answer', async () => {
    const before = await ids();
    await questions().first().getByRole('button', { name: 'Edit' }).click();
    await log().getByRole('textbox', { name: 'Edit message' }).fill('hello again');
    await log().getByRole('button', { name: 'Send edit' }).click();
    await eventually(() => position(questions().first())).toContain('2/2');
    await idle();
    expect(await questions().first().textContent()).toContain('hello again');

    await questions().first().getByRole('button', { name: 'Previous version' }).click();
    await eventually(ids).toEqual(before);
    expect(await questions().first().textContent()).toContain('hello there');
    expect(await position(questions().first())).toContain('1/2');
    await page.reload();
    await eventually(ids).toEqual(before);
  });
});
