// The whole path a newcomer takes, in one browser session: register, report an incident, work it
// to closed, find it in search and on the dashboard, with no console error on the way.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ARTIFACTS, axeViolations, describeUi, expectNoErrors, registerInBrowser, tokenOf, useUiServer } from './browser.ts';

describeUi('web UI: a newcomer works an incident from report to close', () => {
  const ui = useUiServer();

  it('registers, reports, works the incident to closed, and finds it in search and on the dashboard', async () => {
    const page = await ui.page();
    await registerInBrowser(page, 'newcomer@example.com');

    // Report it, with the `n` shortcut.
    await page.getByRole('heading', { level: 1, name: 'Incidents' }).waitFor();
    await page.keyboard.press('n');
    await page.waitForURL('**/default/incidents/report');
    await page.getByRole('textbox', { name: 'Title' }).fill('Quokka gateway refuses logins');
    await page.getByRole('textbox', { name: 'Description' }).fill('Every login answers 502 since 09:40 UTC.');
    await page.getByRole('button', { name: 'Report incident' }).click();
    await page.waitForURL(/\/default\/incidents\/(?!report)[^/?]+$/);
    await page.getByRole('heading', { level: 1, name: 'Quokka gateway refuses logins' }).waitFor();
    const incidentUrl = page.url();

    // Work it: a note in the timeline, then Stable, then Closed.
    await page.getByRole('tab', { name: 'Timeline' }).click();
    await page.getByLabel('What happened').fill('Restarted the gateway pods');
    await page.getByRole('button', { name: 'Add to timeline' }).click();
    await page.getByRole('list', { name: 'Timeline entries' }).getByText('Restarted the gateway pods').waitFor();
    // A status is changed through "post update", which asks Closed for the resolution.
    const status = page.getByRole('group', { name: 'Status' });
    const dialog = page.getByRole('dialog', { name: 'Post an update' });
    await status.getByRole('button', { name: 'Stable' }).click();
    await dialog.getByRole('button', { name: 'Post update' }).click();
    await status.getByRole('button', { name: 'Stable', pressed: true }).waitFor();
    await status.getByRole('button', { name: 'Closed' }).click();
    await dialog.getByRole('textbox', { name: 'Resolution' }).fill('Restarted the gateway pods.');
    await dialog.getByRole('button', { name: 'Post update' }).click();
    await status.getByRole('button', { name: 'Closed', pressed: true }).waitFor();
    expect(await axeViolations(page)).toEqual([]);

    // Find it through the header's search box.
    await page.getByRole('textbox', { name: 'Search', exact: true }).fill('quokka');
    await page.keyboard.press('Enter');
    await page.waitForURL('**/default/search?q=quokka');
    await page.getByRole('region', { name: 'Incidents' }).getByRole('link', { name: 'Quokka gateway refuses logins' }).click();
    await page.waitForURL(incidentUrl);

    // And on the dashboard, counted as closed.
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Dashboards' }).click();
    await page.getByRole('heading', { level: 1, name: 'Incident dashboard' }).waitFor();
    const summary = page.getByRole('region', { name: 'Summary' });
    await expect.poll(() => summary.locator('[data-stat="Closed"] dd').first().textContent()).toBe('1');
    expect(await axeViolations(page)).toEqual([]);

    // The incidents table shows it closed beside others reported meanwhile; the README's screenshot is this table.
    const token = await tokenOf(page);
    for (const [title, priority] of [
      ['Payments API latency above 2 s in eu-west', 'High'],
      ['Phishing campaign against the finance team', 'Medium'],
      ['Nightly backup job failed on db-3', 'Low'],
    ]) {
      const res = await fetch(`${ui.origin}/api/v1/default/incidents`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ title, description: title, incident_priority: { name: priority } }),
      });
      expect(res.status).toBe(200);
    }
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Incidents' }).click();
    await page.getByRole('table', { name: 'Incidents' }).getByRole('row').filter({ hasText: 'Quokka gateway refuses logins' }).getByText('Closed').waitFor();
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.setViewportSize({ width: 1440, height: 760 });
    await page.screenshot({ path: join(ARTIFACTS, 'incidents.png') });
    expectNoErrors(page);
  }, 120_000);
});
