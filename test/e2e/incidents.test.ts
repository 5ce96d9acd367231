import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { axeViolations, describeUi, expectNoErrors, registerInBrowser, tokenOf, useUiServer } from './browser.ts';
import { shootJourney } from './journey-shots.ts';

/** The API as the signed-in page would call it. */
async function apiOf(page: Page, origin: string) {
  const token = await tokenOf(page);
  return async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${origin}/api/v1/default${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : null;
  };
}

const rowOf = (page: Page, text: string) => page.getByRole('table', { name: 'Incidents' }).getByRole('row').filter({ hasText: text });

describeUi('web UI: incidents table and report form', () => {
  const ui = useUiServer();

  it('reports an incident, filters, saves and applies a view, and changes priorities in bulk', async () => {
    const page = await ui.page();
    await registerInBrowser(page, 'lead@example.com');
    await page.getByRole('heading', { level: 1, name: 'Incidents' }).waitFor();
    await page.getByText('No incidents match').waitFor();

    // Report one through the form.
    await page.getByRole('main').getByRole('link', { name: 'Report incident' }).click();
    await page.waitForURL('**/default/incidents/report');
    await page.getByRole('heading', { level: 1, name: 'Report an incident' }).waitFor();
    await page.getByRole('button', { name: 'Report incident' }).click();
    await page.getByText('Give the incident a title').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole('textbox', { name: 'Title' }).fill('Checkout is failing');
    await page.getByRole('textbox', { name: 'Description' }).fill('Payments time out, since 10:00 UTC.');
    await page.getByRole('button', { name: 'Report incident' }).click();
    await page.waitForURL(/\/default\/incidents\/(?!report)[^/?]+$/);
    const reportedName = decodeURIComponent(new URL(page.url()).pathname.split('/').at(-1)!);

    // Two more through the API, one of them closed.
    const call = await apiOf(page, ui.origin);
    const second = await call('POST', '/incidents', { title: 'Search is slow', description: 'p99 above 2 s' });
    const closed = await call('POST', '/incidents', { title: 'Old certificate expired', description: 'Renewed', status: 'Closed' });
    const reported = (await call('GET', `/incidents?filter=${encodeURIComponent(JSON.stringify([{ field: 'name', op: '==', value: reportedName }]))}`))
      .items[0];
    expect(reported.title).toBe('Checkout is failing');

    await page.goto('/default/incidents');
    await rowOf(page, 'Checkout is failing').waitFor();
    await rowOf(page, 'Old certificate expired').waitFor();
    // The title is the link; the short label (INC-n) is the name's number, the full name on hover.
    const reportedRow = rowOf(page, 'Checkout is failing');
    expect(await reportedRow.getByRole('link', { name: 'Checkout is failing' }).getAttribute('href')).toBe(`/default/incidents/${reportedName}`);
    expect(await reportedRow.getByText(`INC-${/(\d+)$/.exec(reportedName)![1]}`, { exact: true }).getAttribute('title')).toBe(reportedName);

    // Filter by status through the controls: the URL says so, the table follows.
    // The pickers are folded away until asked for.
    await page.getByRole('button', { name: 'Filters', exact: true }).click();
    await page.getByRole('combobox', { name: 'Status', exact: true }).click();
    await page.getByRole('option', { name: 'Closed' }).click();
    await page.getByRole('button', { name: 'Filters (1)' }).waitFor();
    await page.keyboard.press('Escape');
    await page.waitForURL(/[?&]status=Closed/);
    await rowOf(page, 'Checkout is failing').waitFor({ state: 'detached' });
    await rowOf(page, 'Old certificate expired').waitFor();
    expect(await axeViolations(page)).toEqual([]);

    // Save it as a view, clear the filters, apply the view.
    await page.getByRole('button', { name: 'Save view' }).click();
    await page.getByRole('dialog').getByRole('textbox', { name: 'Name' }).fill('Closed ones');
    await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    const views = await call('GET', '/search/filters');
    expect(views.items).toMatchObject([
      { name: 'Closed ones', subject: 'incident', expression: [{ and: [{ or: [{ field: 'status', op: '==', value: 'Closed' }] }] }] },
    ]);
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await page.waitForURL((url) => !url.searchParams.has('status'));
    await rowOf(page, 'Checkout is failing').waitFor();
    await page.getByRole('combobox', { name: 'Saved view', exact: true }).click();
    await page.getByRole('option', { name: 'Closed ones' }).click();
    await page.waitForURL(/[?&]status=Closed/);
    await rowOf(page, 'Checkout is failing').waitFor({ state: 'detached' });

    // CSV of what the filter matches: all rows, beyond the page on screen.
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await rowOf(page, 'Search is slow').waitFor();
    await page.getByRole('textbox', { name: 'Search incidents' }).fill('slow');
    await page.waitForURL(/[?&]q=slow/);
    await rowOf(page, 'Checkout is failing').waitFor({ state: 'detached' });
    const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    expect(file.suggestedFilename()).toMatch(/^incidents-default-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = readFileSync((await file.path())!, 'utf8').split('\r\n');
    expect(csv[0]).toMatch(/^name,title,status,priority,/);
    expect(csv.slice(1, -1)).toEqual([expect.stringContaining(',Search is slow,Active,Low,')]);
    await page.getByRole('button', { name: 'Clear filters' }).click();

    // Bulk: the priority of two incidents.
    await rowOf(page, 'Checkout is failing').waitFor();
    await page.getByRole('checkbox', { name: `Select row ${reported.id}` }).check();
    await page.getByRole('checkbox', { name: `Select row ${second.id}` }).check();
    await page.getByRole('toolbar', { name: 'Bulk actions' }).getByText('2 selected').waitFor();
    await page.getByRole('button', { name: 'Set priority' }).click();
    await page.getByRole('menuitem', { name: 'High' }).click();
    await page.getByText('2 incidents changed.').waitFor();
    for (const id of [reported.id, second.id]) expect((await call('GET', `/incidents/${id}`)).incident_priority.name).toBe('High');
    expect((await call('GET', `/incidents/${closed.id}`)).incident_priority.name).not.toBe('High');
    await rowOf(page, 'Search is slow').getByRole('cell', { name: 'High', exact: true }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    expectNoErrors(page);
  }, 120_000);

  it('fits 12 rows at 1280x800 without a sideways scrollbar; j/k shows the selected row in the light scheme', async () => {
    const page = await ui.page();
    await page.setViewportSize({ width: 1280, height: 800 });
    await registerInBrowser(page, 'many@example.com');
    const call = await apiOf(page, ui.origin);
    for (let n = 1; n <= 13; n++) {
      await call('POST', '/incidents', {
        title: `Incident number ${n} with a title of ordinary length`,
        description: 'Seen by monitoring.',
        commander: { individual: { email: 'many@example.com' } },
      });
    }
    await page.goto('/default/incidents');
    const table = page.getByRole('table', { name: 'Incidents' });
    await table.getByRole('link', { name: /^Incident number 13 / }).waitFor();
    const rows = table.locator('tbody tr');
    await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(13);
    // Rows wholly inside the first screen, without scrolling.
    const inView = await rows.evaluateAll((trs) => trs.filter((tr) => tr.getBoundingClientRect().bottom <= window.innerHeight).length);
    expect(inView).toBeGreaterThanOrEqual(12);
    const sideways = await page.evaluate(() =>
      [document.scrollingElement!, ...document.querySelectorAll('table')].map((e) => {
        const box = e instanceof HTMLTableElement ? e.parentElement! : e;
        return box.scrollWidth - box.clientWidth;
      }),
    );
    expect(sideways.every((extra) => extra <= 0)).toBe(true);
    // What is on fire leads: Active, then Stable, then Closed, newest first within each.
    const first = (await call('GET', '/incidents?itemsPerPage=50')).items.find((i: { title: string }) => i.title.startsWith('Incident number 1 '));
    await call('PUT', `/incidents/${first.id}`, { ...(await call('GET', `/incidents/${first.id}`)), status: 'Stable' });
    const statusColumn = (await table.locator('thead th').allTextContents()).indexOf('Status');
    const order = ['Active', 'Stable', 'Closed'];
    const statuses = async () => (await rows.locator(`td:nth-child(${statusColumn + 1})`).allTextContents()).map((t) => order.indexOf(t.trim()));
    await expect.poll(async () => (await statuses()).includes(1), { timeout: 15_000 }).toBe(true);
    const seen = await statuses();
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(seen).toContain(2);
    expect(await rows.first().textContent()).toContain('Incident number 13 ');
    // The last update: when a responder last said something (a report or a note), "none" before; the
    // system's own entries (the incident made, its commander added) are no one's update.
    expect(await table.locator('thead th').allTextContents()).toContain('Updated');
    await rowOf(page, 'Incident number 13 ').getByRole('cell', { name: 'none', exact: true }).waitFor();
    const twelfth = (await call('GET', '/incidents?itemsPerPage=50')).items.find((i: { title: string }) => i.title.startsWith('Incident number 12 '));
    const noted = new Date(Date.now() - 3 * 60_000).toISOString();
    await call('POST', `/incidents/${twelfth.id}/event`, { description: 'Rolled back the deploy', started_at: noted });
    const updated = rowOf(page, 'Incident number 12 ').locator('time').filter({ hasText: /ago$/ });
    await expect.poll(() => updated.getAttribute('datetime'), { timeout: 15_000 }).toBe(noted);
    // The title column is the widest.
    const widths = await table.locator('thead th').evaluateAll((ths) => ths.map((th) => [th.textContent, th.getBoundingClientRect().width] as const));
    const widest = widths.reduce((a, b) => (b[1] > a[1] ? b : a));
    expect(widest[0]).toBe('Title');
    // j marks a row visibly in the light scheme: an outline, not only a tint.
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('j');
    const marked = table.locator('tbody tr[aria-current="true"]');
    await marked.waitFor();
    expect(await marked.evaluate((tr) => getComputedStyle(tr).outlineStyle)).toBe('solid');
    expect(await shootJourney(page, 'lists')).toEqual({ light: [], dark: [] });

    expectNoErrors(page);
  }, 120_000);
});
