// A real browser for tests: Debian's Chromium driven by playwright-core (no downloaded binaries). Where it is
// missing, the browser tests are skipped loudly; under CI its absence fails the file instead.
import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';

export const CHROMIUM_PATH = process.env.TEST_CHROMIUM_PATH ?? '/usr/bin/chromium';

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

function chromiumPresent(): boolean {
  if (existsSync(CHROMIUM_PATH)) return true;
  if (process.env.CI)
    throw new Error(
      `Chromium is missing at ${CHROMIUM_PATH}. CI runs the browser tests; install the chromium package first.`,
    );
  const line = '!'.repeat(100);
  process.stderr.write(
    `\n${line}\n!!! Chromium is missing at ${CHROMIUM_PATH} (set TEST_CHROMIUM_PATH to use another)\n` +
      `!!! EVERY BROWSER TEST IS SKIPPED (the home page, search, pagination, permalinks, /docs, screenshots).\n` +
      `!!! Install Debian's chromium package to run them; CI fails without it.\n${line}\n\n`,
  );
  return false;
}

/** Whether this test process can drive Chromium: `describe.skipIf(!browserPresent)` for the tests that need it. */
export const browserPresent: boolean = chromiumPresent();

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}

/** What a page did that a page of this service must not: console errors (CSP violations among them), uncaught errors, requests elsewhere. */
export interface PageWatch {
  page: Page;
  /** Every URL the page requested, in order. */
  requests: string[];
  errors: string[];
  /** Requested URLs whose origin is not the server's (data: URLs are not requests to anyone). */
  foreign(): string[];
}

export function watchPage(page: Page, origin: string): PageWatch {
  const requests: string[] = [];
  const errors: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  return {
    page,
    requests,
    errors,
    foreign: () => requests.filter((url) => !url.startsWith('data:') && new URL(url).origin !== origin),
  };
}

/** A fresh context (its own viewport, colour scheme, JavaScript switch) with one watched page; `run` gets the page, the context is closed after. */
export async function withPage<T>(
  browser: Browser,
  origin: string,
  options: BrowserContextOptions,
  run: (watch: PageWatch) => Promise<T>,
): Promise<T> {
  const context: BrowserContext = await browser.newContext(options);
  try {
    return await run(watchPage(await context.newPage(), origin));
  } finally {
    await context.close();
  }
}
