import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExampleApp, type ExampleApp } from './create-example-app.js';
import { createNodeServer } from './create-node-server.js';
import { listenNode } from './listen-node.js';
import type { RunningServer } from './run-example.js';

// Drives Debian's chromium (apt-get install -y chromium) through playwright-core against the default
// example with the demo model. Run: pnpm --filter @chatwire/example-fetch test:browser
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

describe('browser chat page', () => {
  let example: ExampleApp;
  let server: RunningServer;
  let profile: string;
  let context: BrowserContext;
  let page: Page;
  let baseUrl: string;

  beforeAll(async () => {
    // Slow words so the test can watch a reply stream in and stop it.
    example = await createExampleApp({ PORT: '0' }, { demoChunkDelayMs: 120, onError: () => undefined });
    server = await listenNode(createNodeServer(example), example.port);
    baseUrl = `http://127.0.0.1:${server.port}`;
    profile = mkdtempSync(join(tmpdir(), 'chatwire-chromium-'));
    context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: FLAGS });
    page = context.pages()[0] ?? (await context.newPage());
    page.on('dialog', (dialog) => void dialog.accept()); // the delete confirmation
  });

  afterAll(async () => {
    await context?.close();
    await server?.close();
    await example?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  const assistant = (n: number) => page.locator('#messages li[data-role="assistant"]').nth(n);

  it('signs in with the dev sign-in', async () => {
    await page.goto(baseUrl);
    await page.getByLabel('Name').fill('Browser Tester');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.locator('#user').textContent()).toBe('dev-browser-tester');
    expect(await page.locator('#demo-badge').isVisible()).toBe(true);
    expect(await page.locator('#sign-in').isVisible()).toBe(false);
    expect(await page.locator('#rename-form').isVisible()).toBe(false);
  });

  it('creates and renames a chat', async () => {
    await page.getByRole('button', { name: 'New chat' }).click();
    await expect.poll(() => page.locator('#chats li').count()).toBe(1);
    await page.getByRole('button', { name: 'Rename' }).click();
    await page.getByLabel('Chat title').fill('Groceries');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.locator('#chat-title').textContent()).toBe('Groceries');
    await expect.poll(() => page.locator('#chats li button').textContent()).toBe('Groceries');
  });

  it('streams replies with tool calls, their state and result', async () => {
    await send('create a note titled Milk');
    await page.locator('.tool-call[data-tool="records_create"][data-state="output-available"]').waitFor();
    await expect.poll(() => assistant(0).textContent()).toContain('Created note "Milk".');

    await send('list my notes');
    const query = page.locator('.tool-call[data-tool="records_query"][data-state="output-available"]');
    await query.waitFor();
    expect(await query.locator('.tool-output').textContent()).toContain('Milk');
    await expect.poll(() => page.locator('#send').isDisabled()).toBe(false);
  });

  it('stops a reply while it streams', async () => {
    await send('tell me a long story about a lighthouse keeper and the sea and the birds and the storms');
    const reply = assistant(2);
    await expect.poll(() => reply.textContent()).toContain('You said');
    expect(await reply.locator('.status').textContent()).toBe('typing…'); // visibly still streaming
    await page.getByRole('button', { name: 'Stop' }).click();
    await expect.poll(() => reply.locator('.status').textContent()).toBe('stopped');
    expect(await reply.textContent()).not.toContain('configure a provider');
  });

  it('shows the stored history after a reload', async () => {
    await page.reload();
    await expect.poll(() => page.locator('#messages li').count()).toBe(4); // the stopped turn is not stored
    const roles = await page.locator('#messages li').evaluateAll((items) => items.map((li) => li.getAttribute('data-role')));
    expect(roles).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(await page.locator('.tool-call[data-tool="records_query"] .tool-output').textContent()).toContain('Milk');
    expect(await page.locator('#chat-title').textContent()).toBe('Groceries');
  });

  it('deletes the chat', async () => {
    await page.getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => page.locator('#chats li').count()).toBe(0);
    expect(await page.locator('#empty').isVisible()).toBe(true);
  });

  it('shows errors to the user', async () => {
    await page.evaluate(() => localStorage.setItem('chatwire.example.token', 'not-a-jwt'));
    await page.reload();
    await expect.poll(() => page.locator('#error').textContent()).toMatch(/^UNAUTHORIZED: /);
    expect(await page.locator('#sign-in').isVisible()).toBe(true);
  });

  async function send(content: string): Promise<void> {
    await page.getByPlaceholder('Ask something').fill(content);
    await page.getByRole('button', { name: 'Send' }).click();
  }
});
