// What a first visit costs: the JavaScript a browser with an empty cache loads for the first page,
// gzipped (as a proxy in front would send it), must stay under 250 KB; charts and forms of other
// pages load only when those pages are opened.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { ROOT } from '../cli-helpers.ts';
import { describeUi, expectNoErrors, registerInBrowser, tokenOf, useUiServer } from './browser.ts';

const LIMIT = 250 * 1024;

/** Gzipped bytes of every script the page loads from /assets/ until the network is idle. */
async function scriptsOf(page: Page, open: () => Promise<unknown>) {
  const scripts = new Set<string>();
  page.on('response', (r) => {
    const path = new URL(r.url()).pathname;
    if (path.startsWith('/assets/') && path.endsWith('.js')) scripts.add(path);
  });
  await open();
  await page.waitForLoadState('networkidle');
  const sizes = [...scripts].map((path) => ({ path, gzipped: gzipSync(readFileSync(join(ROOT, 'ui', 'dist', path))).length }));
  return { sizes, total: sizes.reduce((sum, s) => sum + s.gzipped, 0) };
}

describeUi('web UI: the first page is light', () => {
  const ui = useUiServer();

  it('sign-in loads under 250 KB of gzipped JavaScript, and no chart library', async () => {
    const page = await ui.page();
    const { sizes, total } = await scriptsOf(page, () => page.goto('/default/auth/login'));
    console.log(`sign-in: ${(total / 1024).toFixed(1)} KB gzipped in ${sizes.length} scripts`);
    expect(total).toBeLessThan(LIMIT);
    expect(sizes.some((s) => /echarts|Dashboards/i.test(s.path))).toBe(false);
    expectNoErrors(page);
  });

  it('the incidents table, opened signed in with an empty cache, loads under 250 KB and asks for one page of rows', async () => {
    const first = await ui.page();
    await registerInBrowser(first, 'light@example.com');
    const token = await tokenOf(first);
    const page = await ui.page();
    await page.goto('/default/auth/login');
    await page.evaluate((t) => localStorage.setItem('muster.token', t!), token);
    const lists: string[] = [];
    const isList = (url: string) => new URL(url).pathname === '/api/v1/default/incidents';
    page.on('request', (r) => {
      if (isList(r.url())) lists.push(new URL(r.url()).search);
    });
    const fresh = await ui.browser.newContext({ baseURL: ui.origin });
    await fresh.addInitScript((t) => localStorage.setItem('muster.token', t), token!);
    const cold = await fresh.newPage();
    const { sizes, total } = await scriptsOf(cold, () => cold.goto('/default/incidents'));
    console.log(`incidents: ${(total / 1024).toFixed(1)} KB gzipped in ${sizes.length} scripts`);
    expect(total).toBeLessThan(LIMIT);
    expect(sizes.some((s) => /echarts|Dashboards/i.test(s.path))).toBe(false);
    await fresh.close();
    // The table asks for rows after the app has started; on a busy machine that can come after the
    // network was idle for a moment, so the test waits for the request itself.
    const listed = page.waitForRequest((r) => isList(r.url()));
    await page.goto('/default/incidents');
    await listed;
    await page.waitForLoadState('networkidle');
    // Rows come a page at a time: a table of 10,000 incidents never loads them all.
    expect(lists.length).toBeGreaterThan(0);
    for (const search of lists) expect(new URLSearchParams(search).get('itemsPerPage')).toMatch(/^(10|25|50|100)$/);
  });
});
