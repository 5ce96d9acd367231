// End-to-end tests of the web UI: a real `muster server start` on a fresh embedded data directory
// (or, when DATABASE_URL names a PostgreSQL server, a fresh database on it), serving the built UI (ui/dist), driven by Chromium through playwright-core. Every page's console
// errors and uncaught exceptions fail the test; a failing test leaves a screenshot of the page in
// test-artifacts/e2e/ (kept by CI as an artifact).
//
// Chromium: MUSTER_CHROMIUM, else the first of chromium, chromium-browser, google-chrome on the
// PATH. Without one the suite is skipped with a message, unless MUSTER_E2E_REQUIRED=1 (CI sets it),
// which fails it instead.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import axe from 'axe-core';
import { type Browser, type BrowserContext, chromium, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, onTestFinished } from 'vitest';
import { embeddedTarget, freePort, postgresTarget, ROOT, type RunningServer, SERVER_URL, startServer, type Target, tempDir } from '../cli-helpers.ts';

export const ARTIFACTS = join(ROOT, 'test-artifacts', 'e2e');

function findChromium(): string | undefined {
  const candidates = [process.env.MUSTER_CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable'];
  return candidates.find((path) => path && existsSync(path));
}

export const CHROMIUM = findChromium();
const BUILT = existsSync(join(ROOT, 'ui', 'dist', 'index.html'));
if (!BUILT) throw new Error('ui/dist has no build: run `npm run ui:build` first');
if (!CHROMIUM && process.env.MUSTER_E2E_REQUIRED === '1')
  throw new Error('no Chromium found for the web UI tests (set MUSTER_CHROMIUM, or install the chromium package)');

/** `describe`, or `describe.skip` with a note when there is no browser here. */
export const describeUi: typeof describe = CHROMIUM
  ? describe
  : (((name: string, fn: () => void) => {
      console.warn(`web UI tests skipped: no Chromium (set MUSTER_CHROMIUM or install chromium): ${name}`);
      return describe.skip(name, fn);
    }) as typeof describe);

export interface PageOptions {
  colorScheme?: 'light' | 'dark';
}

export interface UiServer {
  server: RunningServer;
  /** http://127.0.0.1:PORT */
  origin: string;
  browser: Browser;
  /**
   * A fresh browser context (its own storage) and page, its errors collected. Each test's pages
   * close when it ends (a failed one's screenshot taken first).
   */
  page(options?: PageOptions): Promise<Page>;
  /**
   * Another page of an open context, as a new tab: its storage (who is signed in) and its cache of
   * the app's scripts are the context's. A new context costs Chromium about 1.5 CPU-s more: a
   * process of its own and every script compiled again.
   */
  pageIn(context: BrowserContext, options?: PageOptions): Promise<Page>;
}

/**
 * Starts a server and a browser for the describe block it is called in; both stop after it. The
 * returned object is filled in by beforeAll. `env`: more settings of the server, given its origin
 * (started peers it talks to first).
 */
export function useUiServer(options: { env?: (origin: string) => Promise<Record<string, string>> } = {}): UiServer {
  const ui = {} as UiServer;
  let target: Target | undefined;
  const contexts: BrowserContext[] = [];
  beforeAll(async () => {
    target = SERVER_URL ? await postgresTarget({ migrated: true }) : embeddedTarget({ migrated: true });
    const cwd = tempDir('muster-e2e-');
    // The address is chosen first, so that settings naming it (MUSTER_UI_URL) can be given.
    const port = await freePort();
    ui.origin = `http://127.0.0.1:${port}`;
    const extra = (await options.env?.(ui.origin)) ?? {};
    ui.server = await startServer({
      cwd,
      port,
      env: { DATABASE_URL: undefined, MUSTER_JWT_SECRET: 'e2e-secret', MUSTER_ENCRYPTION_KEY: 'e2e-key', ...target.env, ...extra },
    });
    ui.browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
    ui.pageIn = async (context, options = {}) => {
      const page = await context.newPage();
      await page.emulateMedia({ colorScheme: options.colorScheme ?? 'light' });
      watchErrors(page);
      return page;
    };
    ui.page = async (options = {}) => {
      const context = await ui.browser.newContext({ baseURL: ui.origin, viewport: { width: 1280, height: 900 } });
      contexts.push(context);
      return ui.pageIn(context, options);
    };
  }, 180_000);
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => {});
    await ui.browser?.close();
    await ui.server?.stop();
    await target?.cleanup();
  });
  return ui;
}

const errorsOf = new WeakMap<Page, string[]>();

function watchErrors(page: Page) {
  const errors: string[] = [];
  errorsOf.set(page, errors);
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(`console: ${msg.text()}`);
  });
  page.on('pageerror', (err) => errors.push(`page error: ${err.message}`));
  onTestFinished(async ({ task }) => {
    if (task.result?.state === 'fail') {
      mkdirSync(ARTIFACTS, { recursive: true });
      const file = join(ARTIFACTS, `${task.name.replace(/[^a-z0-9]+/gi, '-').slice(0, 80)}.png`);
      await page.screenshot({ path: file, fullPage: true }).catch(() => {});
      console.error(`screenshot of the failed page: ${file}`);
    }
    // A page left open would keep following the records it shows, for the server and the browser.
    await page.close().catch(() => {});
  });
}

/**
 * The console errors and uncaught exceptions the page has had. An API refusal the page shows to the
 * person (a 4xx the browser logs as a failed resource) is not one: pass `allow` for those.
 */
export function expectNoErrors(page: Page, allow: RegExp[] = []) {
  const errors = (errorsOf.get(page) ?? []).filter((e) => !/Failed to load resource/.test(e) && !allow.some((a) => a.test(e)));
  expect(errors).toEqual([]);
}

/** The page's serious and critical accessibility violations (axe-core), as `id: target` lines. */
export async function axeViolations(page: Page): Promise<string[]> {
  // A dialog or menu fading in or out has, for an instant, text at part opacity: axe would measure
  // that frame's contrast. What is checked is the page at rest.
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'), undefined, { timeout: 5000 }).catch(() => {});
  // axe goes into each frame once per document (a page loaded afresh has none; the app's own
  // navigation keeps it) and runs where it is. @axe-core/playwright's AxeBuilder put its half-megabyte
  // script into the page again on every check and finished each in a new blank page: about 2 CPU-s of
  // Chromium a check, against under 0.5 this way, for the same rules and findings.
  for (const frame of page.frames()) if (!(await frame.evaluate(() => 'axe' in window))) await frame.evaluate(axe.source);
  const result = await page.evaluate(() => (window as unknown as { axe: typeof axe }).axe.run(document, { resultTypes: ['violations'] }));
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}): ${n.target.join(' ')}`));
}

/** Registers `email` through the register page and waits for the incidents table. */
export async function registerInBrowser(page: Page, email: string, password = 'a long enough passphrase', organization = 'default') {
  await page.goto(`/${organization}/auth/register`);
  await page.getByLabel('Email').fill(email);
  await page.getByRole('textbox', { name: 'Password' }).fill(password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.waitForURL(`**/${organization}/incidents**`);
}

/** Signs `email` in through the sign-in page. */
export async function signInBrowser(page: Page, email: string, password = 'a long enough passphrase', organization = 'default') {
  await page.goto(`/${organization}/auth/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByRole('textbox', { name: 'Password' }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`**/${organization}/incidents**`);
}

/** The API token the page holds after signing in. */
export const tokenOf = (page: Page) => page.evaluate(() => localStorage.getItem('muster.token'));

/** Calls the API of `organization` as the page's signed-in person, expecting 200; answers the body. */
export type ApiCall = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => Promise<any>;

/**
 * Pages of one person of the describe block's server, each on the incidents table, where signing in
 * lands: registered on first use (the first person registered is the organization's Owner), then new
 * tabs of the same browser, which keeps them signed in; each with `apiCall` as that person.
 */
export function personPages(ui: UiServer, email: string, organization = 'default') {
  let browser: BrowserContext | undefined;
  return async (options?: PageOptions) => {
    let page: Page;
    if (browser) {
      page = await ui.pageIn(browser, options);
      await page.goto(`/${organization}/incidents`);
    } else {
      page = await ui.page(options);
      await registerInBrowser(page, email, undefined, organization);
      browser = page.context();
    }
    const token = await tokenOf(page);
    const apiCall: ApiCall = async (method, path, body, headers = {}) => {
      const res = await fetch(`${ui.origin}/api/v1/${organization}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
        body: body ? JSON.stringify(body) : undefined,
      });
      expect(res.status, `${method} ${path}`).toBe(200);
      return res.json();
    };
    return { page, apiCall, token };
  };
}

/** Clicks and keys a person spends on a journey, counted as they are made. */
export function counted(page: Page) {
  const effort = { clicks: 0, keys: 0 };
  return {
    effort,
    click: async (target: Locator) => {
      effort.clicks += 1;
      await target.click();
    },
    type: async (text: string, then?: 'Enter') => {
      effort.keys += text.length + (then ? 1 : 0);
      await page.keyboard.type(text);
      if (then) await page.keyboard.press(then);
    },
    press: async (key: string) => {
      effort.keys += 1;
      await page.keyboard.press(key);
    },
  };
}
