import { createServer, type IncomingMessage } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Dialog, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExampleApp, type ExampleApp } from './create-example-app.js';
import { createNodeServer } from './create-node-server.js';
import { listenNode } from './listen-node.js';
import type { RunningServer } from './run-example.js';
import { createNumberedProvider, replyEnding, replyOpening, type NumberedProvider } from './testing/create-numbered-provider.js';

// Drives Debian's chromium (apt-get install -y chromium) through playwright-core against the default example,
// by roles and accessible names. Run: pnpm --filter @chatwire/example-fetch test:browser
// Set CHATWIRE_SCREENSHOT_DIR to keep the phone-layout screenshot (otherwise it goes to a temp dir, deleted).
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

const CODE = [
  'const total = items.reduce((sum, item) => sum + item.qty * item.price, 0); // one long line that scrolls inside its block',
  'console.log(`total: ${total}`);',
].join('\n');

/** What the stub provider answers to anything but "inject": GFM with a heading, list, task, table and code. */
const MARKDOWN_ANSWER = [
  '## Shopping plan',
  '',
  'Here is what to buy, see https://example.com/shop for more:',
  '',
  '- Milk',
  '- **Bread**, fresh',
  '- [x] Eggs',
  '',
  '| Item | Qty | Price |',
  '|:-----|----:|------:|',
  '| Milk | 2 | 1.20 |',
  '| Bread | 1 | 2.50 |',
  '',
  '```ts',
  CODE,
  '```',
  '',
  'Done.[^1]',
  '',
  '[^1]: Prices from last week.',
].join('\n');

/** What it answers to "inject": every way a model could try to run script in the page. */
const HOSTILE_ANSWER = [
  'A trap: <img src=x onerror="alert(\'img\')"> and <svg onload=alert(\'svg\')></svg>',
  '',
  "<script>alert('script')</script>",
  '',
  '<a href="javascript:alert(\'a\')" onclick="alert(\'click\')">html link</a>',
  '',
  "[md link](javascript:alert('link')) [upper](JAVASCRIPT:alert(1)) [entity](jav&#x61;script:alert(1)) [data](data:text/html,<script>alert(1)</script>) <javascript:alert('auto')>",
  '',
  "![pic](javascript:alert('pic'))",
  '',
  '<iframe src="javascript:alert(\'frame\')"></iframe>',
  '',
  '<details open ontoggle=alert(\'toggle\')>x</details>',
  '',
  '[ref link][r]',
  '',
  "[r]: javascript:alert('ref')",
].join('\n');

/** `expect.poll` with room for a slow shared machine (its default gives up after one second). */
const eventually = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 15_000 });

describe('browser chat page', () => {
  let browser: Browser;
  let profile: string;

  beforeAll(async () => {
    profile = mkdtempSync(join(tmpdir(), 'chatwire-chromium-'));
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS });
  });

  afterAll(async () => {
    await browser?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  describe('with the demo model', () => {
    let example: ExampleApp;
    let server: RunningServer;
    let context: BrowserContext;
    let page: Page;

    beforeAll(async () => {
      // Slow words so the test can watch a reply stream in and stop it.
      example = await createExampleApp({ PORT: '0' }, { demoChunkDelayMs: 120, onError: () => undefined });
      server = await listenNode(createNodeServer(example), example.port);
      context = await browser.newContext({ viewport: { width: 1200, height: 800 } });
      page = await context.newPage();
      page.on('dialog', (dialog) => void dialog.accept()); // the delete confirmation
      await page.goto(`http://127.0.0.1:${server.port}`);
    });

    afterAll(async () => {
      await context?.close();
      await server?.close();
      await example?.close();
    });

    const answers = () => page.getByRole('log', { name: 'Messages' }).getByRole('article', { name: 'Assistant' });
    const chatItems = () => page.getByRole('list', { name: 'Chats' }).getByRole('listitem');

    it('signs in with the dev sign-in', async () => {
      await signIn(page, 'Browser Tester');
      await eventually(() => page.getByText('dev-browser-tester').isVisible()).toBe(true);
      expect(await page.getByText('demo model').isVisible()).toBe(true);
      expect(await page.getByRole('button', { name: 'Sign in' }).isVisible()).toBe(false);
      expect(await page.getByRole('textbox', { name: 'Chat title' }).isVisible()).toBe(false);
      expect(await page.getByRole('button', { name: 'Chats' }).isVisible()).toBe(false); // wide screen: no drawer
    });

    it('creates and renames a chat', async () => {
      await page.getByRole('button', { name: 'New chat' }).click();
      await eventually(() => chatItems().count()).toBe(1);
      expect(await chatItems().getByRole('link').textContent()).toBe('New chat'); // untitled until named
      await page.getByRole('button', { name: 'Rename' }).click();
      await page.getByRole('textbox', { name: 'Chat title' }).fill('Groceries');
      await page.getByRole('button', { name: 'Save' }).click();
      await eventually(() => page.getByRole('heading', { level: 2, name: 'Groceries' }).isVisible()).toBe(true);
      await eventually(() => chatItems().textContent()).toBe('Groceries');
    });

    it('streams replies with tool calls, their state and result', async () => {
      await send(page, 'create a note titled Milk');
      await page.getByText('Tool records_create · done').waitFor();
      await eventually(() => answers().nth(0).textContent()).toContain('Created note "Milk".');

      await send(page, 'list my notes');
      const query = page.getByText('Tool records_query · done');
      await query.waitFor();
      await query.click(); // opens the tool block
      expect(await answers().nth(1).getByText('Result').isVisible()).toBe(true);
      expect(await answers().nth(1).textContent()).toContain('Milk');
      await eventually(() => page.getByRole('button', { name: 'Send' }).isDisabled()).toBe(false);
    });

    it('stops a reply while it streams', async () => {
      await send(page, 'tell me a long story about a lighthouse keeper and the sea and the birds and the storms');
      const reply = answers().nth(2);
      await eventually(() => reply.textContent()).toContain('You said');
      expect(await reply.getByText('typing…').isVisible()).toBe(true); // visibly still streaming
      await page.getByRole('button', { name: 'Stop' }).click();
      await eventually(() => reply.getByText('stopped').isVisible()).toBe(true);
      expect(await reply.textContent()).not.toContain('configure a provider');
    });

    it('shows the stored history after a reload', async () => {
      await page.reload();
      const messages = page.getByRole('log', { name: 'Messages' }).getByRole('article');
      await eventually(() => messages.count()).toBeGreaterThanOrEqual(4);
      const roles = await messages.evaluateAll((items) => items.map((item) => item.getAttribute('aria-label')));
      // A server with the stop route stores the stopped turn with its partial answer; an older one stores nothing.
      if (roles.length === 6) expect(await answers().nth(2).getByText('stopped').isVisible()).toBe(true);
      else expect(roles).toHaveLength(4);
      expect(roles.slice(0, 4)).toEqual(['You', 'Assistant', 'You', 'Assistant']);
      expect(await answers().nth(1).textContent()).toContain('Milk');
      expect(await page.getByRole('heading', { level: 2, name: 'Groceries' }).isVisible()).toBe(true);
    });

    it('fits a 375-px-wide phone with the demo badge and a tool call', async () => {
      await page.setViewportSize({ width: 375, height: 740 });
      await eventually(() => page.getByRole('button', { name: 'New chat' }).isVisible()).toBe(false); // in the drawer
      await answers().nth(1).scrollIntoViewIfNeeded();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
      expect(await controlsOffScreen(page)).toEqual([]);
      expect(await page.getByText('demo model').isVisible()).toBe(true);
      await page.setViewportSize({ width: 1200, height: 800 });
    });

    it('deletes the chat', async () => {
      await page.getByRole('button', { name: 'Delete' }).click();
      await eventually(() => chatItems().count()).toBe(0);
      expect(await page.getByText('Create a chat or pick one from the list.').isVisible()).toBe(true);
    });

    it('shows errors to the user', async () => {
      await page.evaluate(() => localStorage.setItem('chatwire.example.token', 'not-a-jwt'));
      await page.reload();
      await eventually(() => page.getByRole('alert').textContent()).toMatch(/^UNAUTHORIZED: /);
      expect(await page.getByRole('button', { name: 'Sign in' }).isVisible()).toBe(true);
    });
  });

  describe('Markdown answers and the phone layout (a stub OpenAI-compatible provider)', () => {
    let provider: RunningServer;
    let example: ExampleApp;
    let server: RunningServer;
    let context: BrowserContext;
    let page: Page;
    const dialogs: string[] = [];
    /** While set, the stub provider pauses each answer after its first few chunks until it settles. */
    let hold: Promise<void> | undefined;

    beforeAll(async () => {
      provider = await listenNode(createStubProvider(() => hold), 0);
      example = await createExampleApp(
        { PORT: '0', PROVIDER_C_BASE_URL: `http://127.0.0.1:${provider.port}/v1`, PROVIDER_C_API_KEY: 'stub-key' },
        { onError: () => undefined },
      );
      server = await listenNode(createNodeServer(example), example.port);
      context = await browser.newContext({
        viewport: { width: 1200, height: 800 },
        permissions: ['clipboard-read', 'clipboard-write'],
      });
      page = await context.newPage();
      page.on('dialog', (dialog: Dialog) => {
        dialogs.push(`${dialog.type()}: ${dialog.message()}`);
        void dialog.dismiss();
      });
      await page.goto(`http://127.0.0.1:${server.port}`);
      await signIn(page, 'Markdown Reader');
      await page.getByRole('button', { name: 'New chat' }).click();
      await page.getByRole('combobox', { name: 'Model' }).selectOption('gamma-oss-120b');
    });

    afterAll(async () => {
      await context?.close();
      await server?.close();
      await example?.close();
      await provider?.close();
    });

    const lastAnswer = () => page.getByRole('log', { name: 'Messages' }).getByRole('article', { name: 'Assistant' }).last();

    it('renders a streamed Markdown answer: heading, list, task, table, link and code', async () => {
      let release = (): void => undefined;
      hold = new Promise((resolve) => (release = resolve));
      await send(page, 'plan my shopping');
      const answer = lastAnswer();
      // Rendered while it streams (the provider is paused mid-answer), not only at the end.
      await answer.getByRole('heading', { name: 'Shopping plan' }).waitFor();
      expect(await answer.getByText('typing…').isVisible()).toBe(true);
      hold = undefined;
      release();

      await answer.getByText('Done.').waitFor();
      await eventually(() => page.getByRole('button', { name: 'Send' }).isDisabled()).toBe(false);
      const list = answer.getByRole('list').first();
      const items = await list.getByRole('listitem').allTextContents();
      expect(items.map((text) => text.trim())).toEqual(['Milk', 'Bread, fresh', 'Eggs']);
      expect(await list.getByRole('listitem').nth(1).locator('strong').textContent()).toBe('Bread');
      expect(await answer.getByRole('checkbox').isChecked()).toBe(true);
      expect(await answer.getByRole('checkbox').isDisabled()).toBe(true);

      const table = answer.getByRole('table');
      expect(await table.getByRole('columnheader').allTextContents()).toEqual(['Item', 'Qty', 'Price']);
      expect(await table.getByRole('row').nth(2).getByRole('cell').allTextContents()).toEqual(['Bread', '1', '2.50']);

      const link = answer.getByRole('link', { name: 'https://example.com/shop' });
      expect(await link.getAttribute('href')).toBe('https://example.com/shop');
      expect(await link.getAttribute('rel')).toContain('noopener');

      expect(await answer.locator('pre code').textContent()).toBe(`${CODE}\n`);
      expect(await answer.getByText('ts', { exact: true }).isVisible()).toBe(true); // the language label
      expect(await answer.getByText('Prices from last week.').isVisible()).toBe(true); // a footnote
      const label = await answer.getByRole('heading', { name: 'Footnotes' }).boundingBox(); // for screen readers only
      expect(label!.width).toBeLessThanOrEqual(1);
    });

    it('copies a code block, and only the code, with its "Copy" button', async () => {
      await page.evaluate(() => navigator.clipboard.writeText('before'));
      const copy = lastAnswer().getByRole('button', { name: 'Copy' });
      expect(await copy.count()).toBe(1);
      await copy.click();
      await eventually(() => lastAnswer().getByRole('button', { name: 'Copied' }).isVisible()).toBe(true);
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(CODE);
    });

    it('copies with the legacy copy command where the Clipboard API is missing', async () => {
      const legacy = await context.newPage();
      await legacy.addInitScript(() => {
        Object.defineProperty(navigator, 'clipboard', { value: undefined });
        const copied: string[] = [];
        Object.assign(window, { copied });
        // Records what a real copy command would put on the clipboard: the selection in the focused text box.
        document.execCommand = (command: string) => {
          const box = document.activeElement as HTMLTextAreaElement | null;
          if (command !== 'copy' || !box || typeof box.selectionStart !== 'number') return false;
          copied.push(box.value.slice(box.selectionStart, box.selectionEnd));
          return true;
        };
      });
      await legacy.goto(page.url().split('#')[0]!); // no chat in the address: reopens the last chat
      const answer = legacy.getByRole('log', { name: 'Messages' }).getByRole('article', { name: 'Assistant' }).last();
      await answer.getByRole('button', { name: 'Copy' }).click();
      await eventually(() => answer.getByRole('button', { name: 'Copied' }).isVisible()).toBe(true);
      expect(await legacy.evaluate(() => (window as unknown as { copied: string[] }).copied)).toEqual([CODE]);
      await legacy.close();
    });

    it('renders a script-injection attempt inert', async () => {
      await send(page, 'inject');
      const answer = lastAnswer();
      await answer.getByText('A trap:', { exact: false }).waitFor();
      await eventually(() => page.getByRole('button', { name: 'Send' }).isDisabled()).toBe(false);

      // The raw HTML shows as text...
      expect(await answer.getByText("<script>alert('script')</script>").isVisible()).toBe(true);
      expect(await answer.textContent()).toContain('<img src=x onerror=');
      // ...nothing of it became an element, a handler or a script URL anywhere in the document...
      expect(await answer.locator('script, iframe, svg, img, object, embed, details').count()).toBe(0);
      const found = await page.evaluate(() => {
        const bad: string[] = [];
        for (const node of Array.from(document.querySelectorAll('*'))) {
          for (const { name, value } of Array.from(node.attributes)) {
            if (name.toLowerCase().startsWith('on')) bad.push(`${node.localName}[${name}]`);
            if (/^\s*(?:javascript|vbscript|data):/i.test(value)) bad.push(`${node.localName}[${name}=${value}]`);
          }
        }
        return bad;
      });
      expect(found).toEqual([]);
      // ...the Markdown links lost their URL (no link role), and clicking their text runs nothing.
      expect(await answer.getByRole('link').count()).toBe(0);
      for (const text of ['md link', 'upper', 'entity', 'ref link', 'html link']) {
        await answer.getByText(text, { exact: false }).first().click();
      }
      // A round trip to the server, so an image error or a click handler would have had time to fire.
      await page.evaluate(() => fetch('/config.json').then((response) => response.text()));
      expect(dialogs).toEqual([]);
      await page.screenshot({ path: join(process.env.CHATWIRE_SCREENSHOT_DIR ?? profile, 'desktop-markdown.png') });
    });

    it('fits a 375-px-wide phone: no sideways scroll, code scrolls in its block, Send in view and working', async () => {
      await page.setViewportSize({ width: 375, height: 740 });
      await page.reload(); // reopens the chat from the address
      const answers = page.getByRole('log', { name: 'Messages' }).getByRole('article', { name: 'Assistant' });
      await answers.first().getByRole('table').waitFor();
      await answers.first().scrollIntoViewIfNeeded();

      const widths = await page.evaluate(() => ({
        document: document.documentElement.scrollWidth,
        body: document.body.scrollWidth,
      }));
      expect(widths.document).toBeLessThanOrEqual(375);
      expect(widths.body).toBeLessThanOrEqual(375);
      expect(await controlsOffScreen(page)).toEqual([]);
      const code = answers.first().locator('pre');
      const codeBox = await code.evaluate((pre) => ({ scroll: pre.scrollWidth, client: pre.clientWidth }));
      expect(codeBox.scroll).toBeGreaterThan(codeBox.client); // the long line scrolls inside the block

      const box = page.getByRole('textbox', { name: 'Message' });
      const sendButton = page.getByRole('button', { name: 'Send' });
      for (const control of [box, sendButton]) {
        const rect = await control.boundingBox();
        expect(rect).not.toBeNull();
        expect(rect!.x).toBeGreaterThanOrEqual(0);
        expect(rect!.x + rect!.width).toBeLessThanOrEqual(375);
        expect(rect!.y + rect!.height).toBeLessThanOrEqual(740);
      }
      const dir = process.env.CHATWIRE_SCREENSHOT_DIR ?? profile;
      await page.screenshot({ path: join(dir, 'phone-375.png') });

      // The chat list is behind the "Chats" button.
      expect(await page.getByRole('button', { name: 'New chat' }).isVisible()).toBe(false);
      await page.getByRole('button', { name: 'Chats' }).click();
      await eventually(() => page.getByRole('button', { name: 'New chat' }).isVisible()).toBe(true);
      await page.getByRole('list', { name: 'Chats' }).getByRole('link').first().click();
      await eventually(() => page.getByRole('button', { name: 'New chat' }).isVisible()).toBe(false);
      await page.screenshot({ path: join(dir, 'phone-375-after-drawer.png') });

      // Send really works from the phone layout.
      const before = await answers.count();
      await box.fill('plan my shopping again');
      await sendButton.click();
      await eventually(() => answers.count()).toBe(before + 1);
      await answers.last().getByText('Done.').waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
      // Two answers with the same footnote: their footnote ids differ, so each reference finds its own note.
      const ids = await page.evaluate(() => Array.from(document.querySelectorAll('[id*="user-content-fn"]'), (node) => node.id));
      expect(ids.length).toBeGreaterThanOrEqual(4);
      expect(new Set(ids).size).toBe(ids.length);
      await page.screenshot({ path: join(dir, 'phone-375-answer.png') });
    });
  });
  describe('turn lifecycle: stop, regenerate, edit, the model picker (a stub provider numbering its answers)', () => {
    let provider: NumberedProvider;
    let providerServer: RunningServer;
    let example: ExampleApp;
    let server: RunningServer;
    let context: BrowserContext;
    let page: Page;
    const modelRequests: string[] = [];

    beforeAll(async () => {
      provider = createNumberedProvider();
      providerServer = await listenNode(provider.server, 0);
      example = await createExampleApp(
        { PORT: '0', PROVIDER_C_BASE_URL: `http://127.0.0.1:${providerServer.port}/v1`, PROVIDER_C_API_KEY: 'stub-key' },
        { onError: () => undefined },
      );
      server = await listenNode(createNodeServer(example), example.port);
      context = await browser.newContext({ viewport: { width: 1200, height: 800 } });
      page = await context.newPage();
      page.on('request', (request) => {
        if (request.method() === 'GET' && new URL(request.url()).pathname.endsWith('/models')) modelRequests.push(request.url());
      });
      await page.goto(`http://127.0.0.1:${server.port}`);
      await signIn(page, 'Lifecycle Tester');
      await page.getByRole('button', { name: 'New chat' }).click();
      await page.getByRole('textbox', { name: 'Message' }).waitFor();
    });

    afterAll(async () => {
      await context?.close();
      await server?.close();
      await example?.close();
      await providerServer?.close();
    });

    const log = () => page.getByRole('log', { name: 'Messages' });
    const answers = () => log().getByRole('article', { name: 'Assistant' });
    const questions = () => log().getByRole('article', { name: 'You' });
    const roles = () => log().getByRole('article').evaluateAll((items) => items.map((item) => item.getAttribute('aria-label')));
    const idle = () => eventually(() => page.getByRole('button', { name: 'Send' }).isDisabled()).toBe(false);

    it('offers exactly the models of GET /models in the control named "Model"', async () => {
      const picker = page.getByRole('combobox', { name: 'Model' });
      await eventually(() => modelRequests.length).toBeGreaterThan(0); // the page asks the route itself
      const token = await page.evaluate(() => localStorage.getItem('chatwire.example.token'));
      const response = await fetch(modelRequests[0]!, { headers: { authorization: `Bearer ${token}` } });
      expect(response.status).toBe(200);
      const { models } = (await response.json()) as { models: Array<{ id: string }> };
      const ids = models.map((m) => m.id);
      expect(ids).toContain('gamma-oss-120b'); // the stub provider's model
      // The page's start-up list (/config.json) has every allow-listed model: the route's list is not that one.
      const startUp = (await (await fetch(`http://127.0.0.1:${server.port}/config.json`)).json()) as { models: unknown[] };
      expect(startUp.models.length).toBeGreaterThan(ids.length);
      const options = () => picker.getByRole('option').evaluateAll((items) => items.map((item) => (item as HTMLOptionElement).value));
      await eventually(options).toEqual(ids);
      expect(await picker.inputValue()).toBe('gamma-oss-120b');
      await picker.selectOption('gamma-oss-120b');
    });

    it('"Stop" ends the answer, keeps its partial text, and a reload shows it stored as stopped', async () => {
      const pause = provider.pauseNext();
      await send(page, 'first question');
      await pause.paused;
      const answer = answers().last();
      await eventually(() => answer.textContent()).toContain(replyOpening(1, 'first question'));
      expect(await answer.getByText('typing…').isVisible()).toBe(true);
      await page.getByRole('button', { name: 'Stop' }).click();
      await eventually(() => answer.getByText('stopped').isVisible()).toBe(true);
      await idle(); // the stream ended
      expect(await page.getByRole('button', { name: 'Stop' }).isVisible()).toBe(false);
      expect(await answer.getByText('typing…').count()).toBe(0);
      const partial = await answer.textContent();
      expect(partial).toContain(replyOpening(1, 'first question'));
      expect(partial).not.toContain(replyEnding(1));
      pause.release();

      await page.reload(); // reopens the chat it showed
      await eventually(roles).toEqual(['You', 'Assistant']);
      expect(await questions().first().textContent()).toContain('first question');
      expect(await answers().first().textContent()).toContain(replyOpening(1, 'first question'));
      expect(await answers().first().textContent()).not.toContain(replyEnding(1));
      expect(await answers().first().getByText('stopped').isVisible()).toBe(true);
    });

    it('"Regenerate" replaces the last answer, and a reload shows only the new one', async () => {
      await page.getByRole('combobox', { name: 'Model' }).selectOption('gamma-oss-120b');
      await send(page, 'second question');
      await eventually(() => answers().last().textContent()).toContain(replyEnding(2));
      await idle();
      expect(await answers().first().getByRole('button', { name: 'Regenerate' }).count()).toBe(0); // only the last answer
      await answers().last().getByRole('button', { name: 'Regenerate' }).click();
      await eventually(() => answers().last().textContent()).toContain(replyEnding(3));
      await idle();
      expect(provider.asked.at(-1)).toBe('second question'); // the same question asked again
      expect(await answers().last().textContent()).toContain(replyOpening(3, 'second question'));
      expect(await roles()).toEqual(['You', 'Assistant', 'You', 'Assistant']);
      expect(await log().textContent()).not.toContain('Reply 2 ');

      await page.reload();
      await eventually(roles).toEqual(['You', 'Assistant', 'You', 'Assistant']);
      expect(await questions().last().textContent()).toContain('second question');
      expect(await answers().last().textContent()).toContain(replyEnding(3));
      expect(await log().textContent()).not.toContain('Reply 2 ');
    });

    it('"Edit" on a user message sends its new text, drops the later messages, and a reload agrees', async () => {
      await page.getByRole('combobox', { name: 'Model' }).selectOption('gamma-oss-120b');
      await questions().first().getByRole('button', { name: 'Edit' }).click();
      const box = log().getByRole('textbox', { name: 'Edit message' });
      expect(await box.inputValue()).toBe('first question');
      await box.fill('edited question');
      await log().getByRole('button', { name: 'Send edit' }).click();
      await eventually(() => answers().last().textContent()).toContain(replyEnding(4));
      await idle();
      expect(provider.asked.at(-1)).toBe('edited question');
      const shown = async () => ({
        roles: await roles(),
        question: (await questions().first().textContent())?.trim(),
        answer: await answers().first().textContent(),
      });
      const expected = {
        roles: ['You', 'Assistant'],
        question: expect.stringContaining('edited question'),
        answer: expect.stringContaining(replyOpening(4, 'edited question')),
      };
      await eventually(shown).toEqual(expected);
      for (const gone of ['first question', 'second question', 'Reply 1 ', 'Reply 3 ']) expect(await log().textContent()).not.toContain(gone);

      await page.reload();
      await eventually(shown).toEqual(expected);
      for (const gone of ['first question', 'second question', 'Reply 1 ', 'Reply 3 ']) expect(await log().textContent()).not.toContain(gone);
    });

    describe('with CHATWIRE_ON_DISCONNECT=continue', () => {
      let continuing: ExampleApp;
      let continuingServer: RunningServer;
      let resumePage: Page;
      const chatPosts: string[] = [];

      beforeAll(async () => {
        continuing = await createExampleApp(
          {
            PORT: '0',
            PROVIDER_C_BASE_URL: `http://127.0.0.1:${providerServer.port}/v1`,
            PROVIDER_C_API_KEY: 'stub-key',
            CHATWIRE_ON_DISCONNECT: 'continue',
          },
          { onError: () => undefined },
        );
        continuingServer = await listenNode(createNodeServer(continuing), continuing.port);
        resumePage = await context.newPage();
        resumePage.on('request', (request) => {
          if (request.method() === 'POST' && new URL(request.url()).pathname.endsWith('/chat')) chatPosts.push(request.url());
        });
        await resumePage.goto(`http://127.0.0.1:${continuingServer.port}`);
        await signIn(resumePage, 'Lifecycle Tester');
        await resumePage.getByRole('button', { name: 'New chat' }).click();
        await resumePage.getByRole('combobox', { name: 'Model' }).selectOption('gamma-oss-120b');
      });

      afterAll(async () => {
        await resumePage?.close();
        await continuingServer?.close();
        await continuing?.close();
      });

      it('resumes a running answer after a reload and completes it without sending again', async () => {
        const messages = resumePage.getByRole('log', { name: 'Messages' });
        const answer = () => messages.getByRole('article', { name: 'Assistant' }).last();
        const pause = provider.pauseNext();
        await send(resumePage, 'keep going');
        await pause.paused;
        const n = provider.asked.length;
        await eventually(() => answer().textContent()).toContain(replyOpening(n, 'keep going'));
        expect(chatPosts).toHaveLength(1);

        await resumePage.reload(); // closes the turn's connection; the server keeps the turn running
        // The reloaded page attaches to the running turn: its answer so far, still streaming.
        await eventually(() => answer().textContent()).toContain(replyOpening(n, 'keep going'));
        expect(await answer().getByText('typing…').isVisible()).toBe(true);
        expect(await resumePage.getByRole('button', { name: 'Stop' }).isVisible()).toBe(true);
        pause.release();

        await eventually(() => answer().textContent()).toContain(replyEnding(n));
        await eventually(() => resumePage.getByRole('button', { name: 'Send' }).isDisabled()).toBe(false);
        expect(await answer().getByText('typing…').count()).toBe(0);
        expect(await answer().getByText('stopped').count()).toBe(0);
        expect(chatPosts).toHaveLength(1); // nothing sent again
        expect(provider.asked).toHaveLength(n); // the model answered once
        const shownRoles = () => messages.getByRole('article').evaluateAll((items) => items.map((item) => item.getAttribute('aria-label')));
        await eventually(shownRoles).toEqual(['You', 'Assistant']); // the stored question replaces the unknown one
        expect(await messages.getByRole('article', { name: 'You' }).textContent()).toContain('keep going');

        await resumePage.reload();
        await eventually(shownRoles).toEqual(['You', 'Assistant']);
        expect(await answer().textContent()).toContain(replyEnding(n));
        expect(await answer().textContent()).toContain(replyOpening(n, 'keep going'));
      });
    });
  });

  describe('generated titles (CHATWIRE_AUTO_TITLES=1, the demo model)', () => {
    let example: ExampleApp;
    let server: RunningServer;
    let context: BrowserContext;
    let page: Page;

    beforeAll(async () => {
      example = await createExampleApp({ PORT: '0', CHATWIRE_AUTO_TITLES: '1' }, { demoChunkDelayMs: 0, onError: () => undefined });
      server = await listenNode(createNodeServer(example), example.port);
      context = await browser.newContext({ viewport: { width: 1200, height: 800 } });
      page = await context.newPage();
      await page.goto(`http://127.0.0.1:${server.port}`);
      await signIn(page, 'Title Tester');
    });

    afterAll(async () => {
      await context?.close();
      await server?.close();
      await example?.close();
    });

    it('an untitled chat gets a title after its first answer, shown in the list without a reload', async () => {
      const chats = () => page.getByRole('list', { name: 'Chats' }).getByRole('listitem');
      await page.getByRole('button', { name: 'New chat' }).click();
      await eventually(() => chats().first().getByRole('link').textContent()).toBe('New chat');
      await send(page, 'Plan a picnic for Saturday');
      await eventually(() => chats().first().getByRole('link').textContent()).toBe('Plan a picnic for Saturday');
    });
  });
});

/** Visible controls and headings that reach past the left or right edge of the window (clipped). */
function controlsOffScreen(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    Array.from(document.querySelectorAll('button, a, input, select, textarea, h1, h2, .badge'))
      .filter((node) => node.checkVisibility({ visibilityProperty: true }))
      .map((node) => ({ node, rect: node.getBoundingClientRect() }))
      .filter(({ rect }) => rect.width > 0 && (rect.left < 0 || rect.right > window.innerWidth))
      .map(({ node, rect }) => `${node.localName} "${node.textContent?.trim()}" ${Math.round(rect.left)}..${Math.round(rect.right)}`),
  );
}

async function signIn(page: Page, name: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Name' }).fill(name);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
}

async function send(page: Page, content: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Message' }).fill(content);
  await page.getByRole('button', { name: 'Send' }).click();
}

/**
 * An OpenAI-compatible chat completions endpoint (what `provider_c` speaks) that streams `HOSTILE_ANSWER` when
 * the last user message says "inject" and `MARKDOWN_ANSWER` otherwise, a few characters every 40 ms; after the
 * first three chunks it waits for `held()` when that returns a promise.
 */
function createStubProvider(held: () => Promise<void> | undefined) {
  return createServer((request, response) => {
    void readJson(request).then(async (body) => {
      const messages = Array.isArray(body.messages) ? (body.messages as Array<{ role: string; content: unknown }>) : [];
      const last = messages.filter((m) => m.role === 'user').at(-1);
      const said = typeof last?.content === 'string' ? last.content : JSON.stringify(last?.content ?? '');
      const answer = said.includes('inject') ? HOSTILE_ANSWER : MARKDOWN_ANSWER;
      const chunk = (choices: unknown[], extra: object = {}) =>
        `data: ${JSON.stringify({ id: 'chatcmpl-stub', object: 'chat.completion.chunk', created: 0, model: body.model, choices, ...extra })}\n\n`;
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      response.write(chunk([{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }]));
      for (let at = 0; at < answer.length; at += 24) {
        response.write(chunk([{ index: 0, delta: { content: answer.slice(at, at + 24) }, finish_reason: null }]));
        await new Promise((resolve) => setTimeout(resolve, 40));
        if (at === 48) await held();
      }
      response.write(chunk([{ index: 0, delta: {}, finish_reason: 'stop' }]));
      response.write(chunk([], { usage: { prompt_tokens: 10, completion_tokens: 20, total_tokens: 30 } }));
      response.end('data: [DONE]\n\n');
    });
  });
}

async function readJson(request: IncomingMessage): Promise<Record<string, unknown>> {
  let text = '';
  for await (const part of request) text += String(part);
  return JSON.parse(text) as Record<string, unknown>;
}
