// A journey's end state, as people see it: in both colour schemes, at 1440 and 1280 px wide, each a
// full-page screenshot in test-artifacts/e2e/journey-<name>-<scheme>-<width>.png, and checked by axe
// in each scheme. The page is left as it was found (scheme and size).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { ARTIFACTS, axeViolations } from './browser.ts';

const SCHEMES = ['light', 'dark'] as const;
const WIDTHS = [1440, 1280];

/** Screenshots of `journey`'s end state; answers axe's serious and critical findings, by scheme. */
export async function shootJourney(page: Page, journey: string): Promise<Record<(typeof SCHEMES)[number], string[]>> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const size = page.viewportSize();
  const initial = await page.evaluate(() => (matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light'));
  const found = { light: [] as string[], dark: [] as string[] };
  for (const scheme of SCHEMES) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.waitForFunction((s) => document.documentElement.getAttribute('data-mantine-color-scheme') === s, scheme);
    found[scheme] = await axeViolations(page);
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      // From the top: a page scrolled down would show its fixed header in the middle of the picture.
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
      // A full page is a new frame of the whole document: on a machine busy with three browsers it
      // took over Playwright's 30 s default once, so it gets the time a test would give it.
      await page.screenshot({ path: join(ARTIFACTS, `journey-${journey}-${scheme}-${width}.png`), fullPage: true, timeout: 90_000 });
    }
  }
  await page.emulateMedia({ colorScheme: initial });
  if (size) await page.setViewportSize(size);
  return found;
}
