import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { createExampleApp, type ExampleApp, type ExampleAppOptions } from '../create-example-app.js';
import { createNodeServer } from '../create-node-server.js';
import { listenNode } from '../listen-node.js';
import type { RunningServer } from '../run-example.js';

/** Debian's chromium (`apt-get install -y chromium`), driven by playwright-core. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** Headless on a closed network: no background connections, no component updates, no QUIC. */
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** `expect.poll` with room for a slow shared machine. */
export function eventually<T>(read: () => T | Promise<T>): ReturnType<typeof expect.poll<T>> {
  return expect.poll(read, { timeout: 15_000 });
}

export interface ExamplePage {
  browser: Browser;
  context: BrowserContext;
  page: Page;
  example: ExampleApp;
  server: RunningServer;
  /** The page's origin, e.g. `http://127.0.0.1:41234`. */
  origin: string;
  close(): Promise<void>;
}

export interface OpenExamplePageOptions {
  /** Environment of the example app (`PORT` is always 0). */
  env?: Record<string, string>;
  /** Options of `createExampleApp` (default: no demo chunk delay, errors ignored). */
  app?: ExampleAppOptions;
  /** Options of the browser context (default: a 1200 x 800 viewport). */
  context?: BrowserContextOptions;
  /** Signs in with the dev sign-in under this name once the page is open. */
  signInAs?: string;
}

/** The example app on a loopback port and a page of it in a fresh chromium context: one per test file. */
export async function openExamplePage(options: OpenExamplePageOptions = {}): Promise<ExamplePage> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS });
  const example = await createExampleApp({ ...options.env, PORT: '0' }, { demoChunkDelayMs: 0, onError: () => undefined, ...options.app });
  const server = await listenNode(createNodeServer(example), example.port);
  const context = await browser.newContext({ viewport: { width: 1200, height: 800 }, ...options.context });
  const page = await context.newPage();
  const origin = `http://127.0.0.1:${server.port}`;
  await page.goto(origin);
  if (options.signInAs !== undefined) await signIn(page, options.signInAs);
  return {
    browser,
    context,
    page,
    example,
    server,
    origin,
    async close() {
      await context.close();
      await server.close();
      await example.close();
      await browser.close();
    },
  };
}

/** The dev sign-in of the example page, by its accessible names. */
export async function signIn(page: Page, name: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Name' }).fill(name);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
}
