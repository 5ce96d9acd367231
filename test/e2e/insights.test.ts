// The dashboards and the global search in a browser against a real server: incidents created through
// the API (one closed) are counted on the incident dashboard, its charts drawn (echarts loaded only
// there), and a word of a title typed into the header's search box finds the incident and opens it.
import { expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { axeViolations, describeUi, expectNoErrors, registerInBrowser, tokenOf, useUiServer } from './browser.ts';

describeUi('web UI: dashboards and search', () => {
  const ui = useUiServer();
  // What the first test makes, the second searches: the owner's browser and an incident.
  let owner: BrowserContext;
  let narwhal: { id: number; name: string };

  it('counts incidents on the dashboard and draws them, the window chosen kept in the URL', async () => {
    const page = await ui.page();
    const scripts: string[] = [];
    page.on('request', (r) => r.resourceType() === 'script' && scripts.push(r.url()));
    await registerInBrowser(page, 'owner@example.com');
    owner = page.context();
    // The incidents page loads no chart library.
    expect(scripts.filter((s) => /echarts/.test(s))).toEqual([]);

    const token = await tokenOf(page);
    const post = async (body: Record<string, unknown>) => {
      const res = await fetch(`${ui.origin}/api/v1/default/incidents`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(res.status, await res.clone().text()).toBe(200);
      return (await res.json()) as { id: number; name: string; status: string; closed_at: string | null };
    };
    narwhal = await post({ title: 'Narwhal sonar outage', description: 'The sonar array went dark.' });
    await post({ title: 'Database failover', description: 'Primary lost.' });
    const closed = await post({ title: 'Expired certificate', description: 'Renewed.', status: 'Closed' });
    expect(closed.closed_at).toBeTruthy();

    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Dashboards' }).click();
    await page.waitForURL('**/default/dashboards/incidents');
    await page.getByRole('heading', { level: 1, name: 'Incident dashboard' }).waitFor();

    const summary = page.getByRole('region', { name: 'Summary' });
    const stat = (label: string) => summary.locator(`[data-stat="${label}"] dd`).first();
    await expect.poll(() => stat('Incidents').textContent()).toBe('3');
    expect(await stat('Active').textContent()).toBe('2');
    expect(await stat('Closed').textContent()).toBe('1');
    expect(await stat('Time to close, mean').textContent()).not.toBe('-');
    // Costs come from the API's cost model (response time of the participants).
    expect(await stat('Total cost').textContent()).toMatch(/^\$[\d,]+\.\d\d$/);

    // The counts are drawn (echarts, as SVG) and named for screen readers.
    const byStatus = page.getByRole('region', { name: 'Incidents by status' });
    await byStatus.locator('svg').first().waitFor();
    expect(await byStatus.locator('[role="img"]').getAttribute('aria-label')).toBe('Incidents by status: Active 2, Closed 1');
    expect(await byStatus.locator('table caption').textContent()).toBe('Incidents by status');
    await page.getByRole('region', { name: 'Incidents reported per month' }).locator('svg').first().waitFor();
    expect(scripts.some((s) => /echarts/.test(s))).toBe(true);
    await page.getByRole('region', { name: 'Costs by priority' }).locator('svg').first().waitFor();
    // No two years of history to forecast from: an empty state, not an error.
    await page.getByRole('region', { name: 'Incident forecast' }).getByRole('heading', { name: 'Nothing to show' }).waitFor();

    // The window is in the URL.
    await page.getByText('90 days').click();
    await page.waitForURL('**/dashboards/incidents?window=90');
    await expect.poll(() => stat('Incidents').textContent()).toBe('3');
    expect(await axeViolations(page)).toEqual([]);
    expectNoErrors(page);
  });

  it('reads custom windows and filters from the URL, redraws in the dark scheme, and shows the case dashboard empty', async () => {
    const page = await ui.pageIn(owner);
    const stat = (label: string) => page.getByRole('region', { name: 'Summary' }).locator(`[data-stat="${label}"] dd`).first();
    const byStatus = page.getByRole('region', { name: 'Incidents by status' });

    // Filters from the URL reach the API: a custom window and the project, type and priority by name.
    await page.goto('/default/dashboards/incidents?window=custom&from=2000-01-01&project=default&type=Default&priority=Low');
    await expect.poll(() => stat('Incidents').textContent()).toBe('3');
    expect(await page.getByLabel('From').inputValue()).toBe('2000-01-01');
    await page.goto('/default/dashboards/incidents?window=custom&to=2000-01-01');
    await page.getByRole('heading', { name: 'No incidents in this window' }).waitFor();
    await page.getByRole('region', { name: 'Incidents by status' }).getByRole('heading', { name: 'Nothing to show' }).waitFor();
    await page.goto('/default/dashboards/incidents?window=90');

    // Dark mode redraws the charts.
    await page.getByRole('button', { name: 'Use the dark colour scheme' }).click();
    await byStatus.locator('svg').first().waitFor();
    await page.getByRole('region', { name: 'Costs per month' }).locator('svg').first().waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Use the light colour scheme' }).click();

    // The case dashboard: no case yet, an empty state.
    await page.getByRole('navigation', { name: 'Dashboards' }).getByRole('link', { name: 'Cases' }).click();
    await page.waitForURL('**/dashboards/cases?window=90');
    await page.getByRole('heading', { name: 'No cases in this window' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    expectNoErrors(page);
  });

  it('finds an incident through the header search box and opens it from the keyboard', async () => {
    const page = await ui.pageIn(owner);
    await page.goto('/default/incidents');
    // The header's search box, then the keyboard: j to the first hit, Enter opens it.
    const box = page.getByRole('textbox', { name: 'Search', exact: true });
    await box.fill('narwhal');
    await box.press('Enter');
    await page.waitForURL('**/default/search?q=narwhal');
    const incidents = page.getByRole('region', { name: 'Incidents' });
    await incidents.getByRole('link', { name: 'Narwhal sonar outage' }).waitFor();
    expect(await page.getByRole('checkbox', { name: 'Incidents (1)' }).isChecked()).toBe(true);
    expect(await axeViolations(page)).toEqual([]);

    // Nothing found: hints, not an error.
    await page.getByLabel('Words to find').fill('zeppelin');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.waitForURL('**/search?q=zeppelin');
    await page.getByRole('heading', { name: 'Nothing matches “zeppelin”' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.goBack();
    await incidents.getByRole('link', { name: 'Narwhal sonar outage' }).waitFor();

    await page.getByRole('heading', { level: 1, name: 'Search' }).click();
    await page.keyboard.press('j');
    await page.keyboard.press('Enter');
    await page.waitForURL(`**/default/incidents/${narwhal.name}`);
    expectNoErrors(page);
  });
});
