import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, openExamplePage, type ExamplePage } from './testing/open-example-page.js';

// Tool approval on the example page (CHATWIRE_APPROVE_TOOLS=records.create): the call's input with "Approve" and
// "Deny", a reload while it waits, and what each answer does. Run: pnpm --filter @chatwire/example-fetch test:browser

describe('tool approval on the example page', () => {
  let opened: ExamplePage;
  let page: Page;

  beforeAll(async () => {
    opened = await openExamplePage({ env: { CHATWIRE_APPROVE_TOOLS: 'records.create' }, app: { demoChunkDelayMs: 0, onError: () => undefined }, signInAs: 'Approver' });
    page = opened.page;
  });

  afterAll(async () => {
    await opened?.close();
  });

  const answers = () => page.getByRole('log', { name: 'Messages' }).getByRole('article', { name: 'Assistant' });
  const approval = () => answers().last().getByRole('group', { name: 'Approve records_create?' });

  async function send(content: string): Promise<void> {
    const before = await answers().count();
    await page.getByRole('textbox', { name: 'Message' }).fill(content);
    await page.getByRole('button', { name: 'Send' }).click();
    await eventually(() => answers().count()).toBe(before + 1);
    await eventually(() => page.getByRole('button', { name: 'Send' }).isDisabled()).toBe(false);
  }

  it('asks before creating a note: the input, "Approve" and "Deny"; a reload shows the question again', async () => {
    await page.getByRole('button', { name: 'New chat' }).click();
    await send('create a note titled Milk');
    await eventually(() => approval().count()).toBe(1);
    expect(await approval().textContent()).toContain('"title": "Milk"');
    await page.reload();
    await eventually(() => approval().getByRole('button', { name: 'Approve' }).count()).toBe(1);
    expect(await approval().getByRole('button', { name: 'Deny' }).count()).toBe(1);
  });

  it('"Approve" runs the call and the answer goes on in the same message', async () => {
    await approval().getByRole('button', { name: 'Approve' }).click();
    await eventually(() => approval().count()).toBe(0);
    await eventually(() => answers().last().locator('details.tool-call').getAttribute('data-state')).toBe('output-available');
    expect(await answers().count()).toBe(1);
    await eventually(() => page.getByRole('button', { name: 'Send' }).isDisabled()).toBe(false);
  });

  it('"Deny" does not run it; the model is told; the notes show only the approved one', async () => {
    await send('create a note titled Eggs');
    await eventually(() => approval().count()).toBe(1);
    await approval().getByRole('button', { name: 'Deny' }).click();
    await eventually(() => approval().count()).toBe(0);
    await eventually(() => answers().last().locator('pre.tool-output').textContent()).toContain('declined');
    await eventually(() => page.getByRole('button', { name: 'Send' }).isDisabled()).toBe(false);
    await send('list my notes');
    const listed = (await answers().last().textContent()) ?? '';
    expect(listed).toContain('Milk');
    expect(listed).not.toContain('Eggs');
    // After a reload nothing waits any more.
    await page.reload();
    await eventually(() => answers().count()).toBe(3);
    expect(await page.getByRole('group', { name: 'Approve records_create?' }).count()).toBe(0);
  });
});
